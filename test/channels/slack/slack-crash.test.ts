import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { openStore } from '../../../src/store/open-store.js';
import { candorInProcess } from '../../support/cli-in-process.js';
import { tempFiles } from '../../support/compose.js';
import { migratedStore } from '../../support/migrated-store.js';
import { createTestStore, DRIVERS, type TestStore } from '../../support/stores.js';
import { waitFor } from '../fake-http.js';
import { FACTS } from '../kb-fixture.js';
import { runCli, type CliRun } from '../run-cli.js';
import { BOT_TOKEN, BOT_USER, sendSigned, SIGNING_SECRET, slackEvent, slowSlack } from './slack-harness.js';

const EVENTS = 50;

async function ingest(env: Record<string, string>, dir: ReturnType<typeof tempFiles>): Promise<void> {
  const file = dir.write('facts.jsonl', FACTS.map((f) => JSON.stringify(f)).join('\n'));
  // In this process (the bin's entry point): the server, killed and started again, is the process under test.
  const run = await candorInProcess(['ingest', file, '--kb', 'default'], env);
  expect(run.code, run.stderr).toBe(0);
}

/**
 * Issues 11 and 38: 50 signed mentions are acknowledged, the server is killed
 * (SIGKILL) while Slack is slow to accept the replies (3 s each), and started
 * again on the same data. Slack stalls on the replies in flight at the kill
 * and shows them in their threads only after the new server is up: a reply
 * looked for at once would be missed and sent again. Every acknowledged
 * question gets exactly one reply in its thread.
 */
describe.each(DRIVERS)('a server killed with questions in flight (%s)', (driver) => {
  const dir = tempFiles({}, 'candor-crash-');
  let store: TestStore | undefined;
  let server: CliRun | undefined;
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await store?.dispose();
    dir.cleanup();
  });

  it('answers every acknowledged question after a restart, one reply per thread', async () => {
    const slack = await slowSlack();
    let database: Record<string, string>;
    if (driver === 'postgres') {
      store = await createTestStore('postgres');
      await store.store.close();
      // The data folder holds only the kept index here: in the test's folder, not the working directory.
      database = { DATABASE_URL: store.databaseUrl as string, CANDOR_DATA_DIR: dir.path('data') };
    } else {
      database = { CANDOR_DATA_DIR: await migratedStore(dir.path('data')) };
    }
    const env: Record<string, string> = {
      ...database,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: `${slack.url}/api/`,
      // A dead worker's claims are taken again after this (PostgreSQL; the embedded store takes them at start).
      CANDOR_INBOX_LEASE_MS: '2000',
      CANDOR_INBOX_POLL_MS: '200',
    };
    await ingest(env, dir);
    server = runCli(['serve'], env);
    const url = await server.serving();
    const events = Array.from({ length: EVENTS }, (_, i) =>
      slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover? (${i})`, channel: `C0CRASH${driver}` }),
    );
    const acks = await Promise.all(events.map((ev) => sendSigned(`${url}/slack/events`, ev.body)));
    expect(acks.map((r) => r.status)).toEqual(events.map(() => 200));

    // Replies are on their way (Slack takes 3 s to accept each): kill the server now.
    await waitFor(() => slack.callsTo('/api/chat.postMessage').length >= 4, 30_000, 'replies in flight');
    server.child.kill('SIGKILL');
    await server.exited;
    // Slack stalls on what it had not accepted yet: shown 1 s after the new server is up (10 s after the kill at most).
    const inFlight = slack.freeze();
    const stalled = events.filter((ev) => inFlight.some((c) => c.body.thread_ts === ev.ts));
    const latest = setTimeout(() => slack.thaw(0), 10_000);
    const restartedAt = Date.now();
    const postsOf = (ev: (typeof events)[number]) => slack.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === ev.ts);
    const sentBeforeKill = events.filter((ev) => postsOf(ev).length > 0);
    expect(stalled.length).toBeGreaterThan(0);
    expect(sentBeforeKill.length).toBeLessThan(EVENTS);

    slack.slow = false;
    server = runCli(['serve'], env);
    await server.serving();
    const servingMs = Date.now() - restartedAt;
    slack.thaw(1_000);
    clearTimeout(latest);
    // Each thread whose reply Slack stalled on is looked at by the new server; every thread gets its reply.
    const lookedAt = (ev: (typeof events)[number]) =>
      slack.callsTo('/api/conversations.replies').some((c) => c.body.ts === ev.ts && c.at >= restartedAt);
    await waitFor(
      () => events.every((ev) => slack.accepted.some((c) => c.body.thread_ts === ev.ts)) && stalled.every(lookedAt),
      90_000,
      'a reply in every thread, and a look at every thread Slack stalled on',
    );
    const answeredMs = Date.now() - restartedAt;
    // A clean stop waits for the replies in flight: the counts are final after it.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await slack.close();
    const counts = events.map((ev) => postsOf(ev).length);
    const lost = counts.filter((n) => n === 0).length;
    const doubled = counts.filter((n) => n > 1).length;
    process.stderr.write(
      `[crash ${driver}] ${EVENTS} questions; ${sentBeforeKill.length} replies sent before the kill, ${stalled.length} of them not yet ` +
        `accepted by Slack; after the restart (serving ${(servingMs / 1000).toFixed(1)} s after the kill, ` +
        `every thread answered ${(answeredMs / 1000).toFixed(1)} s after it): ${lost} lost, ${doubled} doubled\n`,
    );
    expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
    for (const ev of events) expect(String(postsOf(ev)[0]!.body.text)).toContain('MediShield Life covers large hospital bills');

    // One interaction per event, and no inbox row left open.
    const after = await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.CANDOR_DATA_DIR ?? 'unused' });
    try {
      const count = async (query: ReturnType<typeof sql>) =>
        ((await after.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n;
      expect(await count(sql`select count(*)::int as n from interactions where channel = 'slack' and status = 'done'`)).toBe(EVENTS);
      expect(await count(sql`select count(*)::int as n from inbox where status <> 'done'`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from inbox where attempts > 1`)).toBeGreaterThan(0);
    } finally {
      await after.close();
    }
  }, 300_000);
});
