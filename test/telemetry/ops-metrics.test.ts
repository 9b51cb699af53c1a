import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import type { Decision } from '../../src/ask/decision.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { createFeedbackService } from '../../src/feedback/feedback-service.js';
import { createInbox } from '../../src/inbox/inbox-store.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { removeLabel, setLabel } from '../../src/review/label-store.js';
import type { Db } from '../../src/store/open-store.js';
import { reviewSamples } from '../../src/store/schema.js';
import { readOpsCounts } from '../../src/telemetry/ops-counts.js';
import { startOpsMetrics } from '../../src/telemetry/ops-metrics.js';
import type { FakeServer } from '../channels/fake-http.js';
import { sendSigned, slackEvent, startFakeSlack, startSlackRig, type SlackRig } from '../channels/slack/slack-harness.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { completion, factNumber, FAKE_MODEL, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';
import { useTestStore, withoutPostgres } from '../support/stores.js';

const LEAVE = 'How many days of annual leave do full-time staff receive?';
const UNKNOWN = 'What does ADR-0050 say about parking?';

/** The value of the one series of `name` whose labels include every `label="value"` given. */
function value(scraped: string, name: string, labels: Record<string, string>): number | undefined {
  const lines = scraped.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  const found = lines.filter((l) => Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  if (found.length > 1) throw new Error(`${found.length} series of ${name} match ${JSON.stringify(labels)}:\n${found.join('\n')}`);
  return found[0] === undefined ? undefined : Number(found[0].slice(found[0].lastIndexOf(' ') + 1));
}

// One file of its own: the OpenTelemetry global meter provider can be registered once per process.
describe('operator metrics on GET /metrics after scripted traffic', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let fake: FakeOpenAi;
  let slack: FakeServer;
  let rig: SlackRig;
  let metricsServer: RunningServer;
  let gauges: { stop(): void };
  let answered: Decision;
  let beforeLabels = '';
  let scraped = '';
  const scrape = async () => {
    const response = await fetch(`${metricsServer.url}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    slack = await startFakeSlack();
    // Slack keeps failing to take the reply (an error no later try is known not to fix): retried, then given up.
    slack.use((call) => (call.path === '/api/chat.postMessage' ? { body: { ok: false, error: 'fatal_error' } } : undefined));
    rig = await startSlackRig({
      slack,
      channel: { retries: 0 },
      env: {
        CANDOR_KB: 'handbook',
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_API_KEY: 'sk-test-not-a-secret',
        CANDOR_CHAT_MODEL: 'gpt-test',
        CANDOR_LLM_PRICES: JSON.stringify({ [FAKE_MODEL]: { input: 2.5, output: 10 } }),
        CANDOR_INBOX_MAX_ATTEMPTS: '2',
        CANDOR_INBOX_POLL_MS: '50',
      },
    });
    const { app } = rig;
    const db = app.store.db;
    for (const kb of ['handbook', 'policies']) await ingestPaths(db, [files.path('handbook.jsonl')], { kb });
    metricsServer = await startHttpServer([metricsRoute(app.metrics!)], { host: '127.0.0.1', port: 0, log: app.log });
    // As serve starts them, with the clock 90 s ahead: a question stored now has waited 90 s.
    gauges = startOpsMetrics({ db, log: app.log, channels: ['slack', 'teams'], now: () => new Date(Date.now() + 90_000), cacheMs: 0 });

    // Two KBs: a model answer with a price (1,000 tokens in, 500 out) and a hard refusal that calls no model.
    fake.script((call) =>
      completion(
        JSON.stringify({
          answerable: true,
          reasoning: 'Fact 1.',
          answer: 'Full-time staff get 18 days of annual leave each calendar year.',
          citations: [factNumber(call, '18 days')],
        }),
        { usage: { input: 1000, output: 500 } },
      ),
    );
    answered = await app.ask({ question: LEAVE, kb: 'handbook', channel: 'http' });
    const refused = await app.ask({ question: UNKNOWN, kb: 'policies', channel: 'http' });
    expect(fake.chatCalls()).toHaveLength(1);
    expect(refused.reasons[0]?.code).toBe('unknown_entity');

    // A Slack question whose reply Slack never takes: two tries, then the inbox row ends 'failed'.
    const event = slackEvent({ text: `<@UCANDOR> ${UNKNOWN}` });
    expect((await sendSigned(rig.eventsUrl, event.body)).status).toBe(200);
    const status = async () =>
      ((await db.execute(sql`select status from inbox where event_id = ${event.eventId}`)) as unknown as { rows: { status: string }[] })
        .rows[0]?.status;
    for (let i = 0; i < 200 && (await status()) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await status()).toBe('failed');
    // A Teams question no worker has taken yet.
    await createInbox(app.store).put({ channel: 'teams', eventId: 'teams-waiting-1', payload: {} });

    // Both interactions sampled for review; a 👍 on the answer.
    const samples = await db
      .insert(reviewSamples)
      .values([answered, refused].map((d) => ({ interactionId: d.interactionId!, stratum: d.decision, nearness: null })))
      .returning({ id: reviewSamples.id });
    await createFeedbackService(db, 'salt').record({
      interactionId: answered.interactionId!,
      platform: 'slack',
      user: 'U1',
      kind: 'helpful',
    });
    beforeLabels = await scrape();
    // Two labels on the answer's abstention task: a reviewer's and a judge's.
    const sampleId = samples[0]!.id;
    await setLabel(db, { sampleId, task: 'abstention', annotator: 'cli:ann', value: 'correct', via: 'terminal' });
    await setLabel(db, { sampleId, task: 'abstention', annotator: 'llm:strict@1', value: 'correct', via: 'judge' });
    scraped = await scrape();
  }, 60_000);
  afterAll(async () => {
    gauges?.stop();
    await metricsServer?.stop(500);
    await rig?.close();
    await slack?.close();
    await fake?.close();
    files.cleanup();
  });

  it('counts asks by kb, decision, reason, confidence and channel, with durations in seconds', () => {
    const labels = { kb: 'handbook', decision: answered.decision, confidence: answered.confidence, channel: 'http' };
    expect(value(scraped, 'candor_asks_total', labels)).toBe(1);
    expect(value(scraped, 'candor_asks_total', { kb: 'policies', decision: 'abstain', reason: 'unknown_entity', channel: 'http' })).toBe(1);
    expect(value(scraped, 'candor_asks_total', { kb: 'handbook', reason: 'unknown_entity', channel: 'slack' })).toBeGreaterThanOrEqual(1);
    expect(value(scraped, 'candor_llm_calls_avoided_total', { kb: 'policies', channel: 'http' })).toBe(1);
    expect(scraped).toMatch(/^# UNIT candor_ask_duration_seconds s$/m);
    expect(value(scraped, 'candor_ask_duration_seconds_count', { kb: 'policies', channel: 'http' })).toBe(1);
    expect(value(scraped, 'candor_ask_duration_seconds_bucket', { kb: 'policies', channel: 'http', le: '30' })).toBe(1);
    expect(scraped).not.toContain('annual leave'); // no user text in metrics
  });

  it('prices the model call from the tokens the server reported, by provider, model and kb', () => {
    expect(scraped).toMatch(/^# UNIT candor_llm_cost_usd_total USD$/m);
    const cost = value(scraped, 'candor_llm_cost_usd_total', {
      gen_ai_operation_name: 'chat',
      gen_ai_provider_name: 'openai',
      gen_ai_request_model: 'gpt-test',
      gen_ai_response_model: FAKE_MODEL,
      kb: 'handbook',
    });
    expect(cost).toBeCloseTo((1000 * 2.5 + 500 * 10) / 1e6, 12);
  });

  it('shows the inbox per channel: waiting questions, the oldest one’s age, retries and failed deliveries', () => {
    expect(value(scraped, 'candor_inbox_pending', { channel: 'teams' })).toBe(1);
    expect(value(scraped, 'candor_inbox_pending', { channel: 'slack' })).toBe(0);
    expect(value(scraped, 'candor_inbox_oldest_age_seconds', { channel: 'teams' })).toBeGreaterThanOrEqual(89);
    expect(value(scraped, 'candor_inbox_oldest_age_seconds', { channel: 'teams' })).toBeLessThan(150);
    expect(value(scraped, 'candor_inbox_oldest_age_seconds', { channel: 'slack' })).toBe(0);
    expect(scraped).toMatch(/^# UNIT candor_inbox_oldest_age_seconds s$/m);
    expect(value(scraped, 'candor_inbox_retries_total', { channel: 'slack' })).toBe(1);
    expect(value(scraped, 'candor_deliveries_failed_total', { channel: 'slack' })).toBe(1);
    expect(value(scraped, 'candor_deliveries_failed_total', { channel: 'teams' })).toBe(0);
  });

  it('gauges the review backlog by task and kb, a drained series reading 0, and counts labels by task and source', () => {
    expect(value(beforeLabels, 'candor_review_backlog', { task: 'abstention', kb: 'handbook' })).toBe(1);
    expect(value(beforeLabels, 'candor_labels_total', { task: 'abstention' })).toBeUndefined();
    expect(value(scraped, 'candor_review_backlog', { task: 'abstention', kb: 'handbook' })).toBe(0);
    expect(value(scraped, 'candor_review_backlog', { task: 'abstention', kb: 'policies' })).toBe(1);
    expect(value(scraped, 'candor_review_backlog', { task: 'factuality', kb: 'handbook' })).toBe(1);
    expect(value(scraped, 'candor_review_backlog', { task: 'factuality', kb: 'policies' })).toBeUndefined(); // a refusal has no facts to check
    expect(value(scraped, 'candor_review_backlog', { task: 'dontknowness', kb: 'policies' })).toBe(1);
    expect(value(scraped, 'candor_labels_total', { task: 'abstention', source: 'human' })).toBe(1);
    expect(value(scraped, 'candor_labels_total', { task: 'abstention', source: 'judge' })).toBe(1);
  });

  it('counts the 👍 by kind, kb, decision and channel', () => {
    const labels = { kind: 'helpful', kb: 'handbook', decision: answered.decision, channel: 'http' };
    expect(value(scraped, 'candor_feedback_total', labels)).toBe(1);
  });

  it('a store that fails or stalls never fails the scrape: its read is left out, with a warning', async () => {
    const logged: string[] = [];
    const log = (level: string, message: string) => void logged.push(`${level} ${message}`);
    const failing = { execute: () => Promise.reject(new Error('connection refused')) } as unknown as Db;
    const stalled = { execute: () => new Promise(() => undefined) } as unknown as Db;
    for (const broken of [failing, stalled]) {
      const metrics = startOpsMetrics({ db: broken, log, channels: ['slack'], timeoutMs: 200 });
      try {
        expect(value(await scrape(), 'candor_deliveries_failed_total', { channel: 'slack' })).toBe(1); // the working reader's
      } finally {
        metrics.stop();
      }
    }
    expect(logged.filter((l) => l.startsWith('warn metrics: could not read the inbox and review counts'))).toHaveLength(2);
  });

  it('every metric the dashboard and the alert rules query is exposed (but the KB gaps, judge and process-error ones, tested elsewhere)', () => {
    const exposed = new Set([...scraped.matchAll(/^([a-z_:][a-z0-9_:]*)(?:\{| )/gm)].map((m) => m[1] as string));
    const dashboard = JSON.parse(readFileSync(new URL('../../dashboards/candor-grafana.json', import.meta.url), 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
      templating: { list: { name: string; definition?: string }[] };
    };
    const alerts = parse(readFileSync(new URL('../../dashboards/alerts.yaml', import.meta.url), 'utf8')) as {
      groups: { rules: { expr: string }[] }[];
    };
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'kb', 'channel']);
    const queries = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
      ...dashboard.templating.list.flatMap((v) => (v.definition ? [v.definition] : [])),
      ...alerts.groups.flatMap((g) => g.rules.map((r) => r.expr)),
    ];
    // Metric names, not the label names of `by (…)` clauses.
    const names = new Set(
      queries.flatMap((q) =>
        [...q.replace(/\b(by|without) \([^)]*\)/g, '').matchAll(/\b((?:candor|gen_ai|process|nodejs|v8js)_[a-z0-9_]+)\b/g)].map(
          (m) => m[1] as string,
        ),
      ),
    );
    const elsewhere = /^candor_(judge|expert|gaps|process|source)_/; // metrics.test.ts, gap-metrics.test.ts, source-metrics.test.ts, judge tests
    for (const name of [...names].filter((n) => !elsewhere.test(n))) expect(exposed, `${name} is queried but not exposed`).toContain(name);
    for (const name of ['candor_inbox_pending', 'candor_deliveries_failed_total', 'candor_review_backlog', 'candor_llm_cost_usd_total'])
      expect(names).toContain(name);
  });
});

// The scrape above runs on PGlite; the same counts on the PostgreSQL server.
describe.skipIf(withoutPostgres)('the operator counts on PostgreSQL', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const db = useTestStore('postgres');
  afterAll(() => files.cleanup());

  it('count open and failed inbox rows per channel, the backlog per task and kb, and labels per task and source', async () => {
    const { store } = db;
    for (const kb of ['handbook', 'policies']) await ingestPaths(store.db, [files.path('handbook.jsonl')], { kb });
    const { ask } = composeAsk(store, testConfig({ CANDOR_KB: 'handbook' }));
    const answered = await ask({ question: LEAVE, kb: 'handbook', channel: 'slack' });
    const refused = await ask({ question: UNKNOWN, kb: 'policies', channel: 'teams' });
    const imported = await ask({ question: LEAVE, kb: 'handbook', channel: 'import' });
    const samples = await store.db
      .insert(reviewSamples)
      .values([answered, refused, imported].map((d) => ({ interactionId: d.interactionId!, stratum: d.decision, nearness: null })))
      .returning({ id: reviewSamples.id });
    const [first, second, third] = samples.map((r) => r.id) as [number, number, number];
    await setLabel(store.db, { sampleId: first, task: 'abstention', annotator: 'slack:U1', value: 'correct', via: 'reaction' });
    await setLabel(store.db, { sampleId: second, task: 'abstention', annotator: 'rule:abstention@1', value: 'correct', via: 'judge' });
    await setLabel(store.db, { sampleId: third, task: 'abstention', annotator: 'import:policybench', value: 'correct', via: 'import' });
    // A reviewer who changed their mind and took it back: the sample is unlabelled again, both sets counted.
    await setLabel(store.db, { sampleId: first, task: 'factuality', annotator: 'cli:ann', value: 'factual', via: 'terminal' });
    await setLabel(store.db, { sampleId: first, task: 'factuality', annotator: 'cli:ann', value: 'unsure', via: 'terminal' });
    await removeLabel(store.db, { sampleId: first, task: 'factuality', annotator: 'cli:ann', value: 'unsure', via: 'terminal' });

    const inbox = createInbox(store);
    for (const id of ['a', 'b', 'c']) await inbox.put({ channel: 'slack', eventId: id, payload: {} });
    const [claimed] = await inbox.claim('slack', 'worker-1', 1, 60_000);
    await inbox.fail(claimed!.id, 'worker-1', 'slack: reply not delivered yet (fatal_error)', { final: true, retryInMs: 0 });
    await inbox.put({ channel: 'teams', eventId: 'd', payload: {} });
    const [done] = await inbox.claim('teams', 'worker-2', 1, 60_000);
    await inbox.done(done!.id, 'worker-2', 'posted-1');

    const counts = await readOpsCounts(store.db, new Date(Date.now() + 120_000));
    expect(counts.inbox).toEqual([{ channel: 'slack', pending: 2, oldestAgeSeconds: expect.any(Number), failed: 1 }]);
    expect(counts.inbox[0]!.oldestAgeSeconds).toBeGreaterThanOrEqual(119);
    expect(counts.inbox[0]!.oldestAgeSeconds).toBeLessThan(180);
    expect(counts.backlog).toEqual([
      { task: 'abstention', kb: 'policies', unlabelled: 1 },
      { task: 'dontknowness', kb: 'handbook', unlabelled: 1 },
      { task: 'dontknowness', kb: 'policies', unlabelled: 1 },
      ...(answered.decision === 'answer' ? [{ task: 'factuality', kb: 'handbook', unlabelled: 1 }] : []),
    ]);
    expect(counts.labels).toEqual([
      { task: 'abstention', source: 'human', given: 1 },
      { task: 'abstention', source: 'import', given: 1 },
      { task: 'abstention', source: 'judge', given: 1 },
      { task: 'factuality', source: 'human', given: 2 },
    ]);
  });
});
