import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { createFeedbackService } from '../../src/feedback/feedback-service.js';
import { createExpertDesk } from '../../src/gaps/expert-desk.js';
import { listExpertFacts } from '../../src/gaps/expert-facts-list.js';
import { kbGapReport } from '../../src/gaps/kb-gaps.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import type { Log } from '../../src/kernel/log.js';
import type { Db } from '../../src/store/open-store.js';
import { readGapCounts, startGapMetrics } from '../../src/telemetry/gap-metrics.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { GAP_SEED, GAP_SEED_ASKS } from '../support/gap-questions.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

const EXPERTS = JSON.stringify([{ kb: 'handbook', people: ['cli:dana'] }]);

// One file of its own: the OpenTelemetry global meter provider can be registered once per process.
describe('KB gap metrics on GET /metrics', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const logged: { level: string; message: string }[] = [];
  const log: Log = (level, message) => void logged.push({ level, message });
  let app: Candor;
  let server: RunningServer;
  let gauges: { stop(): void } | undefined;
  let answeredShare = 0;
  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    app = await buildCandor(testConfig({ CANDOR_KB: 'handbook', CANDOR_EXPERTS: EXPERTS }), { log });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    for (const [i, question] of GAP_SEED_ASKS.entries()) await app.ask({ question, kb: 'handbook', channel: 'slack', userId: `U${i % 5}` });
    const answered = await app.ask({ question: 'How much does a staff parking permit cost?', kb: 'handbook', channel: 'slack' });
    const report = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 30 });
    const gap = (term: keyof typeof GAP_SEED) => report.groups.find((g) => g.question === GAP_SEED[term])!;
    const desk = createExpertDesk({ db: app.store.db, indexes: app.indexes, experts: app.config.experts.kbs, secret: 'salt', log });
    const expert = { platform: 'cli' as const, user: 'dana', name: 'dana' };
    // gym: asked and answered; pet: asked; shuttle: open.
    for (const term of ['gym', 'pet'] as const)
      await desk.askExpert({ interactionId: gap(term).examples[0]!.interactionId, asker: 'slack:asker', via: 'button' });
    expect(await desk.answer({ gapId: gap('gym').id, expert, text: 'Staff get 20% off at FitWell gyms.' })).toMatchObject({
      kind: 'answered',
    });
    answeredShare = (await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 30 })).answeredShare;
    const feedback = createFeedbackService(app.store.db, 'salt');
    await feedback.record({ interactionId: answered.interactionId!, platform: 'slack', user: 'U1', kind: 'helpful' });
    await feedback.record({
      interactionId: answered.interactionId!,
      platform: 'slack',
      user: 'U2',
      kind: 'not_helpful',
      reason: 'outdated',
    });
    server = await startHttpServer([metricsRoute(app.metrics!)], { host: '127.0.0.1', port: 0, log });
  }, 120_000);
  afterAll(async () => {
    gauges?.stop();
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  // First, before any real observation: the exporter keeps a gauge's last observed value (cumulative), so a
  // failed read after a good one shows the previous numbers; before any, it shows none.
  it('a store that fails or stalls leaves the gauges out of the scrape, with a warning, and the scrape still works', async () => {
    const failing = { execute: () => Promise.reject(new Error('connection refused')) } as unknown as Db;
    const stalled = { execute: () => new Promise(() => undefined) } as unknown as Db;
    for (const db of [failing, stalled]) {
      const broken = startGapMetrics({ db, log, timeoutMs: 200 });
      try {
        const text = await scrape();
        expect(text).not.toMatch(/^candor_gaps_open\{/m);
        expect(text).toMatch(/^candor_feedback_total\{/m);
      } finally {
        broken.stop();
      }
    }
    const warnings = logged.filter((l) => l.level === 'warn' && l.message.startsWith('metrics: could not read knowledge gaps'));
    expect(warnings).toHaveLength(2);
    gauges = startGapMetrics({ db: app.store.db, log });
  });

  it('gauges open gaps and the answered share per KB, read from the store at the scrape', async () => {
    const text = await scrape();
    expect(text).toMatch(/^candor_gaps_open\{[^}]*kb="handbook"[^}]*\} 2$/m); // pets asked, shuttle open
    const share = Number(/^candor_gaps_answered_share\{[^}]*kb="handbook"[^}]*\} ([\d.e+-]+)$/m.exec(text)?.[1]);
    expect(answeredShare).toBeCloseTo(10 / 30, 6);
    expect(share).toBeCloseTo(answeredShare, 6); // the same number `report gaps` shows for 30 days
    expect(text).toMatch(/^# UNIT candor_gaps_answered_share 1$/m);
  });

  it('counts feedback by kind, expert requests by outcome, and histograms the time to an expert answer', async () => {
    const text = await scrape();
    expect(text).toMatch(/^candor_feedback_total\{[^}]*kind="helpful"[^}]*kb="handbook"[^}]*decision="answer"[^}]*\} 1$/m);
    expect(text).toMatch(/^candor_feedback_total\{[^}]*kind="not_helpful"[^}]*\} 1$/m);
    expect(text).toMatch(/^candor_expert_requests_total\{[^}]*kb="handbook"[^}]*via="button"[^}]*outcome="asked"[^}]*\} 2$/m);
    expect(text).toMatch(/^candor_expert_answer_time_count\{[^}]*kb="handbook"[^}]*outcome="answered"[^}]*\} 1$/m);
    expect(text).toMatch(/^candor_expert_answer_time_bucket\{[^}]*le="60"[^}]*\} 1$/m);
  });

  it('every metric the dashboard’s KB gaps row queries is exposed', async () => {
    const exposed = new Set([...(await scrape()).matchAll(/^([a-z_:][a-z0-9_:]*)(?:\{| )/gm)].map((m) => m[1] as string));
    const dashboard = JSON.parse(readFileSync(new URL('../../dashboards/candor-grafana.json', import.meta.url), 'utf8')) as {
      panels: { id: number; type: string; title: string; gridPos: { y: number }; targets?: { expr: string }[] }[];
    };
    const rows = dashboard.panels.filter((p) => p.type === 'row');
    const start = rows.find((r) => r.title === 'KB gaps')!.gridPos.y;
    const end = Math.min(...rows.map((r) => r.gridPos.y).filter((y) => y > start));
    const queries = dashboard.panels
      .filter((p) => p.gridPos.y > start && p.gridPos.y < end)
      .flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    const names = new Set(queries.flatMap((q) => [...q.matchAll(/\b(candor_[a-z0-9_]+)\b/g)].map((m) => m[1] as string)));
    expect([...names].sort()).toEqual([
      'candor_asks_total',
      'candor_expert_answer_time_bucket',
      'candor_expert_requests_total',
      'candor_feedback_total',
      'candor_gaps_answered_share',
      'candor_gaps_open',
    ]);
    for (const name of names) expect(exposed, `${name} is queried but not exposed`).toContain(name);
  });
});

describe.each(DRIVERS)('the gap counts query and expert facts on %s', (driver) => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const db = useTestStore(driver);
  afterAll(() => files.cleanup());

  it('count open gaps and answered refusals per KB as the gap report does; an expert fact falls due after reconfirmDays', async () => {
    await ingestPaths(db.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    await ingestPaths(db.store.db, [files.path('handbook.jsonl')], { kb: 'quiet' });
    const { ask, indexes } = composeAsk(db.store, testConfig({ CANDOR_KB: 'handbook' }));
    for (const question of GAP_SEED_ASKS) await ask({ question, kb: 'handbook', channel: 'teams' });
    const report = await kbGapReport(db.store.db, indexes, { kb: 'handbook', days: 30 });
    const experts = [{ kb: 'handbook', people: ['cli:dana'], autoAsk: false, reconfirmDays: 7 }];
    const desk = createExpertDesk({ db: db.store.db, indexes, experts, secret: 'salt', log: () => undefined });
    const gym = report.groups.find((g) => g.question === GAP_SEED.gym)!;
    await desk.askExpert({ interactionId: gym.examples[0]!.interactionId, asker: 'teams:asker', via: 'button' });
    const answered = await desk.answer({ gapId: gym.id, expert: { platform: 'cli', user: 'dana' }, text: 'Staff get 20% off at FitWell.' });
    expect(answered).toMatchObject({ kind: 'answered' });
    expect(await readGapCounts(db.store.db, new Date())).toEqual([
      { kb: 'handbook', open: 2, refusals: 30, answered: 10 },
      { kb: 'quiet', open: 0, refusals: 0, answered: 0 },
    ]);
    // Refusals older than the 30-day window are not counted; open gaps are, whenever they were asked.
    expect(await readGapCounts(db.store.db, new Date(Date.now() + 31 * 86_400_000))).toEqual([
      { kb: 'handbook', open: 2, refusals: 0, answered: 0 },
      { kb: 'quiet', open: 0, refusals: 0, answered: 0 },
    ]);
    const list = (now: Date) => listExpertFacts(db.store.db, { kb: 'handbook', includeRetired: false, reconfirmDays: 7, now });
    const [fact] = await list(new Date());
    expect(fact).toMatchObject({ text: 'Staff get 20% off at FitWell.', source: 'expert:cli:dana', author: 'dana', status: 'active' });
    expect(new Date(fact!.dueAt!).getTime() - new Date(fact!.confirmedAt!).getTime()).toBe(7 * 86_400_000);
    expect((await list(new Date(Date.now() + 8 * 86_400_000)))[0]!.status).toBe('due');
  });
});
