import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Ask } from '../../src/ask/ask-service.js';
import type { Decided, Decision } from '../../src/ask/decision.js';
import { createInteractionRecorder } from '../../src/ask/record-interaction.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { createLog } from '../../src/kernel/log.js';
import { interactions } from '../../src/store/schema.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

const QUESTIONS = [
  'How many days of annual leave do full-time staff receive?',
  'How much does a staff parking permit cost?',
  'What is the capital of Mongolia?',
  'When does the canteen serve breakfast?',
];

/** Concurrent asks share multi-row inserts (group commit); each must still get its own row, stored before it is answered. */
describe.each(DRIVERS)('recording interactions under concurrent asks (%s)', (driver) => {
  const handle = useTestStore(driver);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let ask: Ask;
  let server: RunningServer;

  beforeAll(async () => {
    const { db } = handle.store;
    await ingestPaths(db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    ({ ask } = composeAsk(handle.store, testConfig({ CANDOR_KB: 'handbook' })));
    server = await startHttpServer([apiRoutes({ ask, maxBodyBytes: 65_536, health: [] })], {
      host: '127.0.0.1',
      port: 0,
      log: createLog('silent'),
    });
  });
  afterAll(async () => {
    await server?.stop(1_000);
    files.cleanup();
  });

  const rowsWithIds = (ids: readonly number[]) =>
    handle.store.db
      .select()
      .from(interactions)
      .where(inArray(interactions.id, [...ids]));

  it('gives every one of 40 simultaneous POST /api/ask its own interaction id, each row stored as answered', async () => {
    const asked = Array.from({ length: 40 }, (_, i) => `${QUESTIONS[i % QUESTIONS.length]} (${i})`);
    const replies = await Promise.all(
      asked.map(async (question) => {
        const res = await fetch(`${server.url}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question }),
        });
        return { status: res.status, body: (await res.json()) as Decision };
      }),
    );
    expect(replies.map((r) => r.status)).toEqual(asked.map(() => 200));
    const ids = replies.map((r) => r.body.interactionId as number);
    expect(new Set(ids).size).toBe(40);

    const stored = new Map((await rowsWithIds(ids)).map((row) => [row.id, row]));
    expect(stored.size).toBe(40);
    replies.forEach(({ body }, i) => {
      const row = stored.get(body.interactionId as number);
      expect(row).toMatchObject({
        channel: 'http',
        eventId: null,
        question: asked[i],
        status: 'done',
        decision: body.decision,
        traceId: body.traceId,
        latencyMs: body.latencyMs,
        kbVersion: body.kb.version,
        answer: body.answer ?? body.refusal,
      });
      // JSON columns hold the values, not strings of them.
      expect(row?.verdicts).toEqual(body.reasons);
      expect(row?.evidence).toEqual(body.evidence);
      expect(row?.answerability).toEqual(body.answerability);
    });
    expect(replies.filter((r) => r.body.decision === 'answer').length).toBeGreaterThan(0);
    expect(replies.filter((r) => r.body.decision === 'abstain').length).toBeGreaterThan(0);
  });

  it('stores one row per event id when deliveries of it arrive at once: the first gets the id, the others null', async () => {
    const deliveries = [
      { eventId: 'Ev-dup', n: 0 },
      { eventId: 'Ev-dup', n: 1 },
      { eventId: 'Ev-a', n: 2 },
      { eventId: undefined, n: 3 },
      { eventId: 'Ev-dup', n: 4 },
      { eventId: 'Ev-b', n: 5 },
    ];
    const decided = await Promise.all(
      deliveries.map(({ eventId, n }) => ask({ question: `${QUESTIONS[n % QUESTIONS.length]}`, channel: 'slack', eventId })),
    );
    const ids = decided.map((d) => d.interactionId);
    const dup = ids.filter((_, i) => deliveries[i]?.eventId === 'Ev-dup');
    expect(dup.filter((id) => id !== null)).toHaveLength(1);
    expect(ids.filter((_, i) => deliveries[i]?.eventId !== 'Ev-dup').every((id) => id !== null)).toBe(true);

    const dupRows = await handle.store.db.select().from(interactions).where(eq(interactions.eventId, 'Ev-dup'));
    expect(dupRows.map((r) => r.id)).toEqual(dup.filter((id) => id !== null));
    const stored = await rowsWithIds(ids.filter((id): id is number => id !== null));
    expect(stored.map((r) => [r.id, r.eventId, r.traceId]).sort()).toEqual(
      decided
        .map((d, i) => [d.interactionId, deliveries[i]?.eventId ?? null, d.traceId])
        .filter(([id]) => id !== null)
        .sort(),
    );

    // A retried delivery, later: already recorded.
    const again = await ask({ question: QUESTIONS[0] as string, channel: 'slack', eventId: 'Ev-a' });
    expect(again.interactionId).toBeNull();
  });

  it('maps each row of one batch back to its caller: new rows, duplicates within it, and events recorded before', async () => {
    const recorder = createInteractionRecorder(handle.store.db, 'salt');
    const decision = await ask({ question: QUESTIONS[1] as string, channel: 'test' }, { record: false });
    const record = (eventId: string | undefined, traceId: string) =>
      recorder.record({ question: QUESTIONS[1] as string, channel: 'test', eventId, userId: 'U1' }, 'q', decision, null, traceId, 1);
    const earlier = await record('E-old', 'trace-old');
    expect(earlier).toEqual(expect.any(Number));

    // Submitted in one turn, so they are written by one statement.
    const batch = await Promise.all([
      record('E-old', 't0'),
      record(undefined, 't1'),
      record('E-new', 't2'),
      record('E-new', 't3'),
      record(undefined, 't4'),
      record('E-other', 't5'),
    ]);
    expect(batch.map((id) => id === null)).toEqual([true, false, false, true, false, false]);
    const stored = new Map((await rowsWithIds(batch.filter((id): id is number => id !== null))).map((r) => [r.id, r]));
    expect([1, 2, 4, 5].map((i) => stored.get(batch[i] as number)?.traceId)).toEqual(['t1', 't2', 't4', 't5']);
    expect(stored.get(batch[2] as number)).toMatchObject({ eventId: 'E-new', userHash: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('stores the rest of a batch when the database refuses one of its rows: only that ask loses its row', async () => {
    const recorder = createInteractionRecorder(handle.store.db, 'salt');
    const decision = await ask({ question: QUESTIONS[0] as string, channel: 'test' }, { record: false });
    // kb_version is an integer column: 2^31 is out of its range (22003), so PostgreSQL refuses that row's insert.
    const refused = { ...decision, kb: { ...decision.kb, version: 2 ** 31 } };
    const record = (d: Decided, traceId: string) =>
      recorder.record({ question: QUESTIONS[0] as string, channel: 'test' }, 'q', d, null, traceId, 1);
    // Submitted in one turn, so they share one statement, which fails as a whole.
    const outcomes = await Promise.allSettled([record(decision, 'ok-1'), record(refused, 'bad'), record(decision, 'ok-2')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = outcomes.flatMap((o) => (o.status === 'fulfilled' && o.value !== null ? [o.value] : []));
    expect((await rowsWithIds(ids)).map((r) => r.traceId).sort()).toEqual(['ok-1', 'ok-2']);
    const bad = await handle.store.db.select().from(interactions).where(eq(interactions.traceId, 'bad'));
    expect(bad).toEqual([]);
  });
});
