import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServe, stopWith, type ServeProcess } from '../serve/serve-process.js';
import { launchChromium } from '../support/chromium.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const DANA = { username: 'dana', password: 'dana answers gaps' };
const BOB = { username: 'bob', password: 'bob only reads here' };
const GYM = 'Is there a gym in the office building?';
const GYM_ANSWER = 'The staff gym is on level 2 of the office building and is open from 7 am to 9 pm on weekdays.';
const DOG = 'Can I bring my dog to the office?';
const PICNIC = 'When is the company picnic this year?';

/** A loaded CI machine starts tsx, opens PGlite and closes it slowly; a hang is what must fail. */
const SLOW_MS = 90_000;

/**
 * `candor serve` runs on the default embedded store, as a process of its own; what the test needs from the store
 * it reads with `candor` commands run beside it (handed to the server). An expert without Slack or Teams closes
 * gaps in the console, in a real browser: dana (console:dana in
 * CANDOR_EXPERTS) answers one gap — the fact previewed, then confirmed — and marks another not for the KB;
 * the asker's next question is answered from her fact. bob, a console user who is no expert, sees the gaps
 * but no forms; a post from another site, or with the page's token missing or changed, is refused.
 */
describe('gap actions in the console, in a browser', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let env: Record<string, string>;
  let server: ServeProcess;
  let attacker: Server;
  let attackerUrl = '';
  let browser: Browser;
  let asDana: BrowserContext;
  let asBob: BrowserContext;
  let page: Page;
  let url = '';

  const askOverApi = async (question: string) => {
    const res = await fetch(`${url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question }),
    });
    return (await res.json()) as { decision: string; evidence?: { source: string; text: string }[] };
  };
  const candor = async <T>(args: string[]): Promise<T> => {
    const run = await candorInProcess([...args, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as T;
  };
  const gapOf = async (question: string) =>
    (await candor<{ groups: { id: number; question: string; state: string }[] }>(['report', 'gaps'])).groups.find(
      (g) => g.question === question,
    );
  const stateOf = async (question: string) => (await gapOf(question))?.state;
  const expertFacts = async () =>
    (await candor<{ facts: { text: string; source: string }[] }>(['kb', 'facts', '--source', 'expert'])).facts.map(({ text, source }) => ({
      text,
      source,
    }));
  const gapSection = (p: Page, question: string) => p.getByTestId('gap-group').filter({ hasText: question });
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}console-gap-actions-${name}.png` });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    env = {
      CANDOR_DATA_DIR: await migratedStore(files.path('data')),
      PORT: '0',
      LOG_LEVEL: 'silent',
      CANDOR_KB: 'handbook',
      CANDOR_CONSOLE_BASIC_AUTH: `${DANA.username}:${DANA.password},${BOB.username}:${BOB.password}`,
      CANDOR_EXPERTS: JSON.stringify([{ kb: 'handbook', people: ['console:dana'] }]),
    };
    server = startServe(env, { args: ['serve'] });
    url = await server.serving(SLOW_MS);
    await candor(['ingest', files.path('handbook.jsonl')]); // beside the running server: it runs there
    for (const question of [GYM, DOG, PICNIC]) expect((await askOverApi(question)).decision, question).toBe('abstain');
    // Another site (another port: another origin) whose page posts to the console, as a forged form would.
    attacker = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://attacker').searchParams.get('to') ?? '/';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><form method="post" action="${url}${target}"><button type="submit">Win a prize</button></form>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
    browser = await launchChromium();
    asDana = await browser.newContext({ viewport: { width: 1280, height: 900 }, httpCredentials: { ...DANA, send: 'always' } });
    asBob = await browser.newContext({ viewport: { width: 1280, height: 900 }, httpCredentials: { ...BOB, send: 'always' } });
    page = await asDana.newPage();
    page.setDefaultTimeout(30_000);
  }, 4 * SLOW_MS);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
    if (server) expect((await stopWith(server, 'SIGTERM')).code).toBe(0);
    files.cleanup();
  }, SLOW_MS);

  it('signs the expert in and shows her the gaps with their forms', async () => {
    await page.goto(`${url}/gaps`);
    expect(await page.locator('header').textContent()).toContain('dana');
    expect(await page.getByTestId('gap-group').count()).toBe(3);
    for (const question of [GYM, DOG, PICNIC]) {
      const section = gapSection(page, question);
      expect(await section.getByTestId('gap-preview').count(), question).toBe(1);
      expect(await section.getByTestId('gap-dismiss').count(), question).toBe(1);
    }
  });

  it('shows a non-expert the gaps and their pages, but no forms', async () => {
    const bobs = await asBob.newPage();
    await bobs.goto(`${url}/gaps`);
    expect(await bobs.getByTestId('gap-group').count()).toBe(3);
    expect(await bobs.locator('form[action^="/gaps/"]').count()).toBe(0);
    expect(await gapSection(bobs, GYM).getByTestId('gap-not-expert').textContent()).toContain('“bob” is not an expert of “handbook”');
    await gapSection(bobs, GYM).getByTestId('gap-id').click();
    await bobs.waitForURL(/\/gaps\/\d+$/);
    expect(await bobs.getByTestId('gap-question').textContent()).toBe(GYM);
    expect(await bobs.locator('form[action^="/gaps/"]').count()).toBe(0);
    await bobs.close();
  });

  it('answers a gap: the new fact is previewed, and added only once confirmed', async () => {
    await page.goto(`${url}/gaps`);
    const section = gapSection(page, GYM);
    await section.getByTestId('gap-answer-input').fill(GYM_ANSWER);
    await section.getByTestId('gap-preview').click();
    await page.waitForURL(/\/gaps\/\d+\/answer$/);
    expect(await page.getByTestId('gap-preview-fact').textContent()).toBe(GYM_ANSWER);
    expect(await page.getByTestId('gap-preview-source').textContent()).toBe('expert:console:dana');
    await shot('preview');
    expect(await expertFacts()).toEqual([]);
    expect(await stateOf(GYM)).toBe('open');
    await page.getByTestId('gap-confirm').click();
    await page.waitForURL(/\/gaps\/\d+\?done=answered$/);
    expect(await page.getByTestId('gap-notice').textContent()).toMatch(/Added as fact \d+/);
    expect(await page.getByTestId('gap-state').textContent()).toBe('answered');
    expect(await page.getByTestId('gap-answer-text').textContent()).toBe(GYM_ANSWER);
    expect(await page.locator('form[action^="/gaps/"]').count()).toBe(0);
    await shot('answered');
    expect(await expertFacts()).toEqual([{ text: GYM_ANSWER, source: 'expert:console:dana' }]);
  });

  it('answers the asker’s next question from the expert’s fact', async () => {
    const reply = await askOverApi('Does the office building have a gym?');
    expect(reply.decision).toBe('answer');
    expect(reply.evidence?.[0]).toMatchObject({ source: 'expert:console:dana', text: GYM_ANSWER });
  });

  it('refuses a cross-site post, even with the expert signed in', async () => {
    const picnic = await gapOf(PICNIC);
    const target = `/gaps/${picnic!.id}/dismiss`;
    const evil = await asDana.newPage();
    await evil.goto(`${attackerUrl}?to=${encodeURIComponent(target)}`);
    const [response] = await Promise.all([
      evil.waitForResponse(`${url}${target}`),
      evil.getByRole('button', { name: 'Win a prize' }).click(),
    ]);
    expect(response.status()).toBe(403);
    expect(await evil.locator('body').textContent()).toContain('Cross-site form posts are refused.');
    await evil.close();
    expect([await stateOf(GYM), await stateOf(DOG), await stateOf(PICNIC)]).toEqual(['answered', 'open', 'open']);
  });

  it('refuses the expert’s own form when its CSRF token is missing or changed', async () => {
    for (const tamper of ['remove', 'change'] as const) {
      await page.goto(`${url}/gaps`);
      const form = gapSection(page, PICNIC).locator('form[action$="/dismiss"]');
      const field = form.locator('input[name="csrf"]');
      await (tamper === 'remove' ? field.evaluate((el) => el.remove()) : field.evaluate((el) => el.setAttribute('value', 'forged')));
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        form.getByTestId('gap-dismiss').click(),
      ]);
      expect(response.status(), tamper).toBe(403);
      expect(await page.locator('body').textContent()).toContain('This form did not carry the console’s token');
    }
    expect(await stateOf(PICNIC)).toBe('open');
  });

  it('marks another gap not for the KB, and a refusal’s page links its gap', async () => {
    await page.goto(`${url}/gaps`);
    await gapSection(page, DOG).getByTestId('gap-dismiss').click();
    await page.waitForURL(/\/gaps\/\d+\?done=dismissed$/);
    expect(await page.getByTestId('gap-state').textContent()).toBe('out of scope');
    expect(await page.getByTestId('gap-notice').textContent()).toContain('Marked “not for the KB”');
    expect(await stateOf(DOG)).toBe('out_of_scope');
    const gapUrl = page.url().replace(/\?.*$/, '');
    await page.getByTestId('gap-refusals').getByRole('link', { name: DOG }).click();
    await page.waitForURL(/\/interactions\/\d+$/);
    expect(await page.getByTestId('interaction-gap').textContent()).toMatch(/^gap \d+$/);
    await page.getByTestId('interaction-gap').click();
    await page.waitForURL(gapUrl);
    expect(await page.getByTestId('gap-question').textContent()).toBe(DOG);
    expect(await askOverApi(DOG).then((r) => r.decision)).toBe('abstain');
  });
});
