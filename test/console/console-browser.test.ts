import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { askPage } from '../../src/console/pages/ask-page.js';
import { layout } from '../../src/console/pages/layout.js';
import { answerDecision, BOOKLET_EVIDENCE, CAVEAT } from '../channels/chat/decision-fixture.js';
import { runCli, type CliRun } from '../channels/run-cli.js';
import { launchChromium } from '../support/chromium.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

const TOKEN = 'browser-console-token-0123456789';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** A person at the console in a real browser, against the real `candor serve`. */
describe('the console in a browser', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let server: CliRun;
  let url = '';
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The KB, ingested in this process (the bin's entry point) into a copy of an empty migrated store; the server is a process.
    const env = { CANDOR_DATA_DIR: await migratedStore(files.path('data')), CANDOR_KB: 'handbook', LOG_LEVEL: 'warn' };
    const ingest = await candorInProcess(['ingest', files.path('handbook.jsonl'), '--kb', 'handbook'], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    server = runCli(['serve'], { ...env, PORT: '0', CANDOR_CONSOLE_TOKEN: TOKEN });
    url = await server.serving(60_000);
    for (const question of [
      'Is there a shuttle bus from the train station?',
      'Does the shuttle run on public holidays?',
      'How many days of annual leave do full-time staff receive?',
    ]) {
      const res = await fetch(`${url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      });
      expect(res.status).toBe(200);
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    files.cleanup();
  });

  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}console-${name}.png`, fullPage: true });

  it('refuses every page without the token', async () => {
    for (const path of ['/', '/interactions', '/gaps', '/ask']) {
      const response = await page.goto(`${url}${path}`);
      expect(response?.status(), path).toBe(401);
      await expect(page.getByTestId('token').isVisible()).resolves.toBe(true);
      expect(await page.content()).not.toContain('shuttle');
    }
    await shot('login');
  });

  it('signs in and sees the overview counting the asks just made', async () => {
    await page.goto(`${url}/`);
    await page.getByTestId('token').fill(TOKEN);
    await page.getByTestId('sign-in').click();
    await page.waitForURL(`${url}/`);
    expect(await page.getByTestId('asks-total').textContent()).toBe('3');
    expect(await page.getByTestId('answered-total').textContent()).toBe('1');
    expect(await page.getByTestId('abstained-total').textContent()).toBe('2');
    expect(await page.locator('svg[aria-label="Asks per day, answered and refused"]').count()).toBe(1);
    await shot('overview');
  });

  it('opens an interaction and sees each layer’s verdict and the answerability score', async () => {
    await page.getByRole('link', { name: 'Interactions', exact: true }).click();
    await page.getByRole('link', { name: 'Does the shuttle run on public holidays?' }).click();
    expect(await page.getByTestId('question').textContent()).toBe('Does the shuttle run on public holidays?');
    const layers = await page.getByTestId('layers').locator('tbody tr td:first-child').allTextContents();
    expect(layers).toEqual(expect.arrayContaining(['answerability', 'entity', 'evidence']));
    expect(Number(await page.getByTestId('answerability-score').textContent())).toBeLessThan(0.5);
    expect(await page.getByTestId('contributions').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('trace-id').textContent()).toMatch(/^[0-9a-f]{32}$/);
    await shot('interaction');
  });

  it('opens KB gaps and sees the refused questions grouped', async () => {
    await page.getByRole('link', { name: 'KB gaps' }).click();
    // One topic (the shuttle), two gaps: the two questions need two different answers.
    const topics = page.getByTestId('gap-topic-group');
    expect(await topics.count()).toBe(1);
    expect(await topics.first().getByTestId('topic-count').textContent()).toBe('2');
    expect(await topics.first().getByTestId('topic-name').textContent()).toMatch(/^shuttle/);
    expect(await page.getByTestId('gap-group').count()).toBe(2);
    expect(await page.getByTestId('gap-state').allTextContents()).toEqual(['open', 'open']);
    await shot('gaps');
  });

  it('asks in the ask box and sees the answer with its evidence', async () => {
    await page.getByRole('link', { name: 'Ask', exact: true }).click();
    await page.getByTestId('ask-question').fill('How much does a staff parking permit cost?');
    await page.getByTestId('ask-submit').click();
    const result = page.getByTestId('ask-result');
    await result.waitFor();
    expect(await result.getByTestId('reply').textContent()).toContain('$45 per month');
    expect(await result.locator('[data-decision="answer"]').count()).toBe(1);
    await shot('ask');
    await page.goto(`${url}/`);
    expect(await page.getByTestId('asks-total').textContent()).toBe('4');
  });

  it('shows a caveated answer’s caveat and opens its source in a new tab, without opener or referrer', async () => {
    // Until ingest keeps links, no real ask has one: the page is the ask page's own markup, served at the console's origin.
    const decision = answerDecision('The premium is $X.', BOOKLET_EVIDENCE, { caveat: CAVEAT });
    const body = askPage(['handbook'], 'handbook', 'How much is the premium?', { decision });
    await page.route(`${url}/ask-preview`, (route) =>
      route.fulfill({ contentType: 'text/html', body: layout({ title: 'Ask', active: '/ask', user: 'token', body }) }),
    );
    const opened: { referer: string | undefined }[] = [];
    await page.context().route('https://www.cpf.gov.sg/**', (route) => {
      opened.push({ referer: route.request().headers().referer });
      return route.fulfill({ contentType: 'text/html', body: '<p>the booklet</p>' });
    });
    await page.goto(`${url}/ask-preview`);
    const caveat = page.getByTestId('caveat');
    expect(await caveat.isVisible()).toBe(true);
    expect(await caveat.textContent()).toContain("I'm not certain this answers your question");
    const link = page.getByRole('link', { name: 'MediShield Life & You <2025> › 3. Coverage > 3.2 How much is the premium?' });
    expect(await link.count()).toBe(1);
    await shot('ask-sources');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe('https://www.cpf.gov.sg/medishield-life?page=7&lang=en');
    expect(await tab.evaluate('window.opener === null')).toBe(true);
    expect(opened).toEqual([{ referer: undefined }]);
    await tab.close();
  });

  it('signs out, and the pages refuse again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    const response = await page.goto(`${url}/review`);
    expect(response?.status()).toBe(401);
  });
});
