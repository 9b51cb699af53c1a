import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createChatServices } from '../../src/app/chat-services.js';
import { buildCandor, type Candor } from '../../src/app/main.js';
import { httpRoutes } from '../../src/app/serve.js';
import type { ChatServices } from '../../src/channels/chat/chat-services.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { startSlackChannel, type SlackChannel } from '../../src/channels/slack/slack-channel.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { sleep, waitFor, type FakeServer } from '../channels/fake-http.js';
import { expertPosts, EXPERTS_CHANNEL, toldIn } from '../channels/slack/experts-rig.js';
import { BOT_TOKEN, sendSigned, SIGNING_SECRET, startFakeSlack, type SlackRig } from '../channels/slack/slack-harness.js';
import { askInSlack, buttonPress, buttonsOf, FORM, rows, type PressedMessage } from '../channels/slack/slack-interactions.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { basicAuth, consoleClient } from '../support/console-client.js';

const TOKEN = 'gap-actions-console-token-0123456789';
const DANA = { user: 'dana', password: 'dana answers gaps' };
const BOB = { user: 'bob', password: 'bob only reads here' };
const GYM = 'Is there a gym in the office building?';
const GYM_ANSWER = 'The staff gym is on level 2 of the office building and is open from 7 am to 9 pm on weekdays.';
const DOG = 'Can I bring my dog to the office?';

const bearer = { authorization: `Bearer ${TOKEN}` };
const squeeze = (text: string) => text.replace(/>\s+</g, '><').replace(/\s+/g, ' ');

/**
 * The gap actions of the console over real HTTP, as `candor serve` wires them: the Slack channel (its Web API on
 * a fake) and the console share one experts desk. An asker in Slack asks an expert; dana (console:dana in
 * CANDOR_EXPERTS) answers in the console, bob (a console user, not an expert) and the shared token cannot.
 */
describe('gap actions in the console', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let slack: FakeServer;
  let app: Candor;
  let chat: ChatServices;
  let channel: SlackChannel;
  let server: RunningServer;
  let asked: PressedMessage;
  const gap = { gym: 0, dog: 0 };
  const rig = () => ({ slack, eventsUrl: `${server.url}/slack/events` }) as unknown as SlackRig;

  beforeAll(async () => {
    slack = await startFakeSlack();
    app = await buildCandor(
      testConfig({
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: `${slack.url}/api/`,
        CANDOR_CONSOLE_TOKEN: TOKEN,
        CANDOR_CONSOLE_BASIC_AUTH: `${DANA.user}:${DANA.password},${BOB.user}:${BOB.password}`,
        CANDOR_EXPERTS: JSON.stringify([{ kb: 'default', slack: EXPERTS_CHANNEL, people: ['console:dana', 'slack:UEXPERT'] }]),
      }),
      { telemetry: false },
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'default' });
    chat = createChatServices(app);
    channel = await startSlackChannel(chat, { reactionDelayMs: 60_000, retries: 1 });
    server = await startHttpServer([channel.route!, ...httpRoutes(app, [], chat.experts)], {
      host: '127.0.0.1',
      port: 0,
      log: app.log,
    });
    // An asker in Slack is refused and asks an expert; someone over the API asks what the KB is not for.
    ({ message: asked } = await askInSlack(rig(), GYM, { user: 'U0ASKER' }));
    const press = buttonPress({
      user: 'U0ASKER',
      actionId: 'candor_ask_expert',
      message: asked,
      value: buttonsOf(asked.blocks).candor_ask_expert!.value,
    });
    expect((await sendSigned(rig().eventsUrl, press.body, FORM)).status).toBe(200);
    await waitFor(() => expertPosts(slack).length === 1, 15_000, 'the experts’ post');
    const api = await fetch(`${server.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: DOG }),
    });
    expect(((await api.json()) as { decision: string }).decision).toBe('abstain');
    const list = squeeze(await (await get('/gaps', basicAuth(BOB))).text());
    for (const [key, question] of [
      ['gym', GYM],
      ['dog', DOG],
    ] as const)
      gap[key] = Number(new RegExp(`<section [^>]*id="gap-(\\d+)">(?:(?!<section).)*${question.replace('?', '\\?')}`).exec(list)?.[1]);
    expect(gap.gym).toBeGreaterThan(0);
    expect(gap.dog).toBeGreaterThan(0);
  }, 60_000);
  afterAll(async () => {
    await server?.stop(500);
    await channel?.stop(2_000);
    await app?.close();
    await slack?.close();
    files.cleanup();
  });

  const { get, post, csrfOf } = consoleClient(() => server.url);
  const expertFacts = () =>
    rows<{ id: number; text: string; source: string; author: string }>(
      app.store.db,
      sql`select id, text, source, author from facts where source like 'expert:%' order by id`,
    );
  const kbVersion = async () => (await rows<{ v: number }>(app.store.db, sql`select max(version) as v from kb_versions`))[0]?.v ?? 0;
  const stateOf = async (gapId: number) =>
    (await rows<{ state: string }>(app.store.db, sql`select state from gaps where id = ${gapId}`))[0]?.state;

  it('shows a non-expert the gaps and their pages, but no forms, and says why', async () => {
    for (const path of ['/gaps', `/gaps/${gap.gym}`]) {
      const body = squeeze(await (await get(path, basicAuth(BOB))).text());
      expect(body).toContain(GYM);
      expect(body).not.toMatch(/action="\/gaps\/\d+\/(answer|dismiss)"/);
      expect(body).toContain('“bob” is not an expert of “default”: ask whoever runs Candor to add console:bob');
    }
    const asToken = squeeze(await (await get(`/gaps/${gap.gym}`, bearer)).text());
    expect(asToken).not.toMatch(/action="\/gaps\/\d+\/answer"/);
    expect(asToken).toContain('Signed in with the shared console token, which names nobody');
  });

  it('refuses a non-expert’s post with 403 and stores nothing, whoever they signed in as', async () => {
    const csrf = await csrfOf(BOB);
    expect(csrf).not.toBe('');
    const answer = await post(`/gaps/${gap.gym}/answer`, { csrf, step: 'confirm', text: 'Bob’s guess' }, basicAuth(BOB));
    expect(answer.status).toBe(403);
    expect(squeeze(await answer.text())).toContain('“bob” is not an expert of “default”');
    expect((await post(`/gaps/${gap.dog}/dismiss`, { csrf }, basicAuth(BOB))).status).toBe(403);
    // A script with the shared token needs no CSRF token, but names nobody.
    expect((await post(`/gaps/${gap.gym}/answer`, { step: 'confirm', text: 'A script’s guess' }, bearer)).status).toBe(403);
    expect(await expertFacts()).toEqual([]);
    expect([await stateOf(gap.gym), await stateOf(gap.dog)]).toEqual(['asked', 'open']);
  });

  it('shows the expert the forms on the list and on the gap’s page', async () => {
    const list = squeeze(await (await get('/gaps', basicAuth(DANA))).text());
    expect(list).toContain(`action="/gaps/${gap.gym}/answer"`);
    expect(list).toContain(`action="/gaps/${gap.dog}/dismiss"`);
    const page = squeeze(await (await get(`/gaps/${gap.gym}`, basicAuth(DANA))).text());
    expect(page).toContain(`action="/gaps/${gap.gym}/answer"`);
    expect(page).toContain('name="step" value="preview"');
    expect(page).toContain('1 asked for an expert');
  });

  it('refuses a post without the page’s CSRF token, with another user’s, or from another origin', async () => {
    const mine = await csrfOf(DANA);
    const form = { step: 'confirm', text: GYM_ANSWER };
    expect((await post(`/gaps/${gap.gym}/answer`, form, basicAuth(DANA))).status).toBe(403);
    expect((await post(`/gaps/${gap.gym}/answer`, { ...form, csrf: await csrfOf(BOB) }, basicAuth(DANA))).status).toBe(403);
    const foreign = await post(`/gaps/${gap.gym}/answer`, { ...form, csrf: mine }, { ...basicAuth(DANA), origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toBe('Cross-site form posts are refused.');
    expect(await expertFacts()).toEqual([]);
  });

  it('previews the fact an answer adds, and adds nothing until it is confirmed', async () => {
    const csrf = await csrfOf(DANA);
    const before = await kbVersion();
    const res = await post(`/gaps/${gap.gym}/answer`, { csrf, step: 'preview', text: `  ${GYM_ANSWER}\n` }, basicAuth(DANA));
    expect(res.status).toBe(200);
    const body = squeeze(await res.text());
    expect(body).toContain(`data-testid="gap-preview-fact">${GYM_ANSWER}<`);
    expect(body).toContain('data-testid="gap-preview-source">expert:console:dana<');
    expect(body).toMatch(/cited as “Answered by an expert on \d{4}-\d\d-\d\d”/);
    expect(body).toContain(`name="step" value="confirm" /><input type="hidden" name="text" value="${GYM_ANSWER}"`);
    expect(await expertFacts()).toEqual([]);
    expect(await kbVersion()).toBe(before);
    const empty = await post(`/gaps/${gap.gym}/answer`, { csrf, step: 'confirm', text: '   ' }, basicAuth(DANA));
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('The answer is empty: write the answer people should get.');
  });

  it('adds the fact once confirmed: the gap answered, the experts’ post updated, the asker told in their thread', async () => {
    const csrf = await csrfOf(DANA);
    const before = await kbVersion();
    const res = await post(`/gaps/${gap.gym}/answer`, { csrf, step: 'confirm', text: GYM_ANSWER }, basicAuth(DANA));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/gaps/${gap.gym}?done=answered`);
    const facts = await expertFacts();
    expect(facts).toEqual([{ id: expect.any(Number), text: GYM_ANSWER, source: 'expert:console:dana', author: 'dana' }]);
    expect(await kbVersion()).toBe(before + 1);
    expect(await stateOf(gap.gym)).toBe('answered');
    const page = squeeze(await (await get(`/gaps/${gap.gym}?done=answered`, basicAuth(DANA))).text());
    expect(page).toContain(`Added as fact ${facts[0]!.id}`);
    expect(page).toContain('data-testid="gap-closed-by">dana<');
    expect(page).not.toMatch(/action="\/gaps\/\d+\/answer"/);
    const told = toldIn(slack, asked);
    expect(told).toHaveLength(1);
    expect(String(told[0]!.body.text)).toContain(`An expert answered your question “${GYM}”: ${GYM_ANSWER.replace(/\.$/, '')}`);
    const updates = slack.callsTo('/api/chat.update').filter((c) => c.body.channel === EXPERTS_CHANNEL);
    expect(JSON.stringify(updates.at(-1)?.body.blocks)).toContain('Answered by dana');
  });

  it('answers a second confirm of a closed gap with a clear message, and writes nothing twice', async () => {
    const csrf = await csrfOf(DANA);
    const [fact] = await expertFacts();
    const version = await kbVersion();
    const again = await post(`/gaps/${gap.gym}/answer`, { csrf, step: 'confirm', text: GYM_ANSWER }, basicAuth(DANA));
    expect(again.status).toBe(409);
    expect(squeeze(await again.text())).toContain(
      `Gap ${gap.gym} was already answered (fact ${fact!.id}) by dana; nothing was added or changed.`,
    );
    expect(await expertFacts()).toHaveLength(1);
    expect(await kbVersion()).toBe(version);
    await chat.experts.deliver(); // what the server's delivery interval runs
    await sleep(200);
    expect(toldIn(slack, asked)).toHaveLength(1);
  });

  it('marks a gap not for the KB once; a second dismissal or an answer after it changes nothing', async () => {
    const csrf = await csrfOf(DANA);
    const res = await post(`/gaps/${gap.dog}/dismiss`, { csrf }, basicAuth(DANA));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/gaps/${gap.dog}?done=dismissed`);
    expect(await stateOf(gap.dog)).toBe('out_of_scope');
    const page = squeeze(await (await get(`/gaps/${gap.dog}?done=dismissed`, basicAuth(DANA))).text());
    expect(page).toContain('Marked “not for the KB”');
    const twice = await post(`/gaps/${gap.dog}/dismiss`, { csrf }, basicAuth(DANA));
    expect(twice.status).toBe(409);
    expect(squeeze(await twice.text())).toContain(
      `Gap ${gap.dog} was already marked not for the KB by dana; nothing was added or changed.`,
    );
    expect((await post(`/gaps/${gap.dog}/answer`, { csrf, step: 'confirm', text: 'Dogs are welcome.' }, basicAuth(DANA))).status).toBe(409);
    expect(await expertFacts()).toHaveLength(1);
  });

  it('links a refusal’s page to its gap', async () => {
    const [row] = await rows<{ id: number }>(app.store.db, sql`select id from interactions where question = ${DOG}`);
    const body = squeeze(await (await get(`/interactions/${row!.id}`, basicAuth(BOB))).text());
    expect(body).toContain(`<a href="/gaps/${gap.dog}" data-testid="interaction-gap">gap ${gap.dog}</a> (out of scope)`);
    expect((await get(`/gaps/${gap.gym}/answer`, basicAuth(BOB))).headers.get('location')).toBe(`/gaps/${gap.gym}`);
    expect((await get('/gaps/999999', basicAuth(BOB))).status).toBe(404);
  });

  it('answers the asker’s next question from the expert’s fact', async () => {
    const { call } = await askInSlack(rig(), 'Does the office building have a gym?', { user: 'U0ASKER' });
    expect(JSON.stringify(call.body.blocks)).toContain('level 2 of the office building');
    expect(JSON.stringify(call.body.blocks)).toMatch(/Answered by an expert on \d{4}-\d\d-\d\d/);
  });
});
