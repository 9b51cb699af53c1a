import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { interactions } from '../../../src/store/schema.js';
import { sleep, waitFor, type FakeServer } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { createTestDatabase } from '../postgres-database.js';
import { BOT_USER, sendSigned, slackEvent, startFakeSlack, startSlackRig, type SlackRig } from './slack-harness.js';

// Two Candor replicas (two HTTP servers, two Bolt apps, two pools) on one PostgreSQL database:
// the claim in the interactions table is what keeps a redelivered event from being answered twice.
let database: { url: string; drop: () => Promise<void> };
let slack: FakeServer;
let a: SlackRig;
let b: SlackRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  database = await createTestDatabase('candor_slack');
  slack = await startFakeSlack();
  const env = { DATABASE_URL: database.url };
  a = await startSlackRig({ env, slack, telemetry: false });
  b = await startSlackRig({ env, slack, telemetry: false });
  kb = await ingestFixture(a.app.store.db);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await slack?.close();
  kb?.cleanup();
  await database?.drop();
});

describe('Slack retries across replicas sharing PostgreSQL', () => {
  it('stores on PostgreSQL', () => {
    expect(a.app.store.kind).toBe('postgres');
    expect(b.app.store.kind).toBe('postgres');
  });

  it('answers an event delivered three times, to either replica, exactly once', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel: 'C0REPLICA' });
    const statuses = await Promise.all([
      sendSigned(a.eventsUrl, ev.body).then((r) => r.status),
      sendSigned(b.eventsUrl, ev.body, { retryNum: 1 }).then((r) => r.status),
      sendSigned(a.eventsUrl, ev.body, { retryNum: 2 }).then((r) => r.status),
    ]);
    expect(statuses).toEqual([200, 200, 200]);
    const posts = () => slack.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === ev.ts);
    await waitFor(() => posts().length === 1);
    const duplicates = () =>
      [...a.logs, ...b.logs].filter((l) => l.message === 'duplicate delivery ignored' && l.fields.eventId === ev.eventId);
    await waitFor(() => duplicates().length === 2, 5000, 'two ignored duplicates');
    await sleep(100);
    expect(posts()).toHaveLength(1);
    expect(String(posts()[0]!.body.text)).toContain('MediShield Life covers large hospital bills');
    const rows = await rowsFor(b.app.store.db, 'slack', ev.eventId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'done', decision: 'answer', question: 'What does MediShield Life cover?' });
  });

  it('keeps exactly one answer per event when many events race on both replicas', async () => {
    const events = Array.from({ length: 12 }, (_, i) =>
      slackEvent({
        text: `<@${BOT_USER}> ${i % 2 ? 'Do learner drivers need L plates?' : 'What is the speed limit on expressways?'}`,
        channel: 'C0RACE',
      }),
    );
    await Promise.all(
      events.flatMap((ev) => [
        sendSigned(a.eventsUrl, ev.body),
        sendSigned(b.eventsUrl, ev.body, { retryNum: 1 }),
        sendSigned(b.eventsUrl, ev.body, { retryNum: 2 }),
      ]),
    );
    const posts = () => slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === 'C0RACE');
    await waitFor(() => posts().length >= events.length, 10_000, 'one reply per event');
    await waitFor(
      () =>
        [...a.logs, ...b.logs].filter(
          (l) => l.message === 'duplicate delivery ignored' && events.some((e) => e.eventId === l.fields.eventId),
        ).length === 24,
      10_000,
      'every duplicate ignored',
    );
    expect(
      posts()
        .map((p) => p.body.thread_ts)
        .sort(),
    ).toEqual(events.map((e) => e.ts).sort());
    const rows = (await a.app.store.db.select().from(interactions)).filter((r) => events.some((e) => e.eventId === r.eventId));
    expect(rows).toHaveLength(events.length);
    expect(new Set(rows.map((r) => r.eventId)).size).toBe(events.length);
    expect(rows.every((r) => r.status === 'done')).toBe(true);
  });
});
