import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor } from '../../src/app/main.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer } from '../../src/channels/http/http-server.js';
import { agreementHistory, filterChoices, findInteraction, reviewSamplesPage } from '../../src/console/console-queries.js';
import { createConsoleFactEdits, createConsoleReads } from '../../src/console/console-reads.js';
import { createConsoleSessions } from '../../src/console/console-sessions.js';
import { listInteractions } from '../../src/console/interaction-list.js';
import { overview } from '../../src/console/overview-query.js';
import { consoleRoutes } from '../../src/console/pages/console-routes.js';
import { kbGapReport, type GapReport } from '../../src/gaps/kb-gaps.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { GAP_QUESTIONS, GAP_TOPICS } from '../support/gap-questions.js';
import { migratedStore } from '../support/migrated-store.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

const ANSWERABLE = ['How many days of annual leave do full-time staff receive?', 'How much does a staff parking permit cost?'];
const TOKEN = 'gaps-console-token-0123456789';

/** Each topic's group: [its first word, refusals (ten asks), distinct questions (one is asked twice)]. */
const EXPECTED = [
  ['gym', GAP_TOPICS.gym.length, new Set(GAP_TOPICS.gym).size],
  ['pet', GAP_TOPICS.pets.length, new Set(GAP_TOPICS.pets).size],
  ['shuttle', GAP_TOPICS.shuttle.length, new Set(GAP_TOPICS.shuttle).size],
];

function summary(groups: GapReport['topics']): [string, number, number][] {
  return groups
    .map((g) => [g.terms[0] as string, g.count, g.questions] as [string, number, number])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

describe('KB gaps: thirty refusals on three topics', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const dataDir = files.path('data');
  let consoleHtml = '';
  let stored: GapReport;

  beforeAll(async () => {
    await migratedStore(dataDir);
    const app = await buildCandor(testConfig({ CANDOR_DATA_DIR: dataDir, CANDOR_KB: 'handbook', CANDOR_CONSOLE_TOKEN: TOKEN }));
    try {
      await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
      for (const question of [...GAP_QUESTIONS, ...ANSWERABLE]) {
        const decision = await app.ask({ question, kb: 'handbook', channel: 'slack' });
        expect(decision.decision, question).toBe(GAP_QUESTIONS.includes(question) ? 'abstain' : 'answer');
      }
      stored = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 30 });
      const server = await startHttpServer(
        [
          apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [] }),
          consoleRoutes({
            reads: createConsoleReads(app.store.db, app.indexes),
            facts: createConsoleFactEdits(app.store.db),
            ask: app.ask,
            settings: app.config.console,
            defaultKb: 'handbook',
            maxBodyBytes: 65_536,
            sessions: createConsoleSessions(app.store.db),
          }),
        ],
        { host: '127.0.0.1', port: 0, log: app.log },
      );
      consoleHtml = await (await fetch(`${server.url}/gaps`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      await server.stop(500);
    } finally {
      await app.close();
    }
  }, 120_000);
  afterAll(() => files.cleanup());

  it('the report has three topics of ten refusals, each holding its gaps', () => {
    expect(stored).toMatchObject({
      kb: { name: 'handbook', version: 1 },
      refusals: 30,
      distinctQuestions: 27,
      failures: 0,
      truncated: false,
    });
    expect(EXPECTED).toEqual([
      ['gym', 10, 9],
      ['pet', 10, 9],
      ['shuttle', 10, 9],
    ]);
    expect(summary(stored.topics)).toEqual(EXPECTED);
    // Gaps are questions experts answer one by one: a topic holds several; the question asked twice is one gap.
    const shuttle = stored.topics.find((t) => t.terms[0] === 'shuttle')!;
    expect(shuttle.gapIds.length).toBeGreaterThan(1);
    const twice = stored.groups.find((g) => g.question === 'Is there a shuttle bus from the train station?')!;
    expect(twice.examples[0]).toMatchObject({ question: 'Is there a shuttle bus from the train station?', times: 2 });
    expect(shuttle.gapIds).toContain(twice.id);
    expect(stored.groups.reduce((n, g) => n + g.count, 0)).toBe(30);
  });

  it('the console’s KB gaps page shows the same three groups with their counts', () => {
    const counts = [...consoleHtml.matchAll(/data-testid="topic-count">(\d+)<\/span> × <span data-testid="topic-name">([^<]+)</g)].map(
      (m) => [m[2]!.split(' / ')[0], Number(m[1])],
    );
    expect(counts.sort()).toEqual([
      ['gym', 10],
      ['pet', 10],
      ['shuttle', 10],
    ]);
    expect(consoleHtml).toContain('30 refusals for lack of knowledge');
  });

  it('`candor report gaps --json` prints the same groups, and text without --json', async () => {
    // Through the bin's entry point, in this process: the output and exit code are what is asserted.
    const json = await candorInProcess(['report', 'gaps', '--kb', 'handbook', '--json'], { CANDOR_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(json.code, json.stderr).toBe(0);
    const printed = JSON.parse(json.stdout) as GapReport;
    expect(summary(printed.topics)).toEqual(summary(stored.topics));
    expect(printed.groups.map((g) => g.id)).toEqual(stored.groups.map((g) => g.id));
    expect(printed.refusals).toBe(30);
    const text = await candorInProcess(['report', 'gaps', '--kb', 'handbook', '--days', '7'], {
      CANDOR_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^KB gaps in "handbook" \(version 1\), last 7 days: 30 refusals, 27 distinct questions, \d+ gaps on 3 topics/,
    );
    expect(text.stdout).toMatch(/^ +10× shuttle \/ bus/m);
    const bad = await candorInProcess(['report', 'gaps', '--days', 'lots'], { CANDOR_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("option '--days <n>' argument 'lots' is invalid");
  }, 60_000);
});

describe.each(DRIVERS)('gap report and console queries on %s', (driver) => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const db = useTestStore(driver);
  afterAll(() => files.cleanup());

  it('group the same refusals the same way, and count asks by day', async () => {
    await ingestPaths(db.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    const { ask, indexes } = composeAsk(db.store, testConfig({ CANDOR_KB: 'handbook' }));
    for (const question of [...GAP_QUESTIONS, ...ANSWERABLE]) await ask({ question, kb: 'handbook', channel: 'teams' });
    await ask({ question: 'What is the leave policy?', kb: 'handbook', channel: 'eval' }); // evaluation asks are never counted
    const report = await kbGapReport(db.store.db, indexes, { kb: 'handbook', days: 30 });
    expect(summary(report.topics)).toEqual(EXPECTED);
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const seen = await overview(db.store.db, { from: today, to: new Date(today.getTime() + 86_400_000), bucket: 'day' });
    expect(seen.totals).toMatchObject({ asks: 32, answered: 2, abstained: 30 });
    expect(seen.buckets).toEqual([
      expect.objectContaining({ start: `${today.toISOString().slice(0, 10)}T00:00:00Z`, answered: 2, abstained: 30 }),
    ]);
    expect(seen.totals.p50).toEqual(expect.any(Number));
    expect(seen.channels).toEqual([{ channel: 'teams', n: 32 }]);
    expect(seen.reasons.reduce((sum, r) => sum + r.n, 0)).toBe(30);
    // The interaction list, its filters, one interaction with its verdicts, the review and agreement pages' reads.
    const refused = await listInteractions(db.store.db, { decision: 'abstain', kb: 'handbook', channel: 'teams' }, 1);
    expect(refused.rows).toHaveLength(30);
    expect(refused.more).toBe(false);
    expect((await listInteractions(db.store.db, {}, 1)).rows.map((r) => r.channel)).not.toContain('eval');
    const choices = await filterChoices(db.store.db);
    expect(choices).toMatchObject({ channels: ['teams'], kbs: ['handbook'] });
    const one = await findInteraction(db.store.db, refused.rows[0]!.id);
    expect(one?.kb).toBe('handbook');
    expect((one?.interaction.verdicts as unknown[]).length).toBeGreaterThan(0);
    expect(await reviewSamplesPage(db.store.db)).toEqual([]);
    expect(await agreementHistory(db.store.db)).toEqual([]);
    // A window that ended before the asks sees none of them.
    expect(
      (await kbGapReport(db.store.db, indexes, { kb: 'handbook', days: 1, now: new Date(Date.now() - 2 * 86_400_000) })).refusals,
    ).toBe(0);
  }, 120_000);
});
