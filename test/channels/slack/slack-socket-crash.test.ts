import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

import { openStore } from '../../../src/store/open-store.js';
import { candorInProcess } from '../../support/cli-in-process.js';
import { tempFiles } from '../../support/compose.js';
import { migratedStore } from '../../support/migrated-store.js';
import { sleep, waitFor } from '../fake-http.js';
import { FACTS } from '../kb-fixture.js';
import { runCli, type CliRun } from '../run-cli.js';
import { BOT_TOKEN, BOT_USER, slackEvent, slowSlack, type SlowSlack } from './slack-harness.js';

const EVENTS = 50;
const CHANNEL = 'C0SOCKCRASH';

type Question = ReturnType<typeof slackEvent>;

interface Envelope {
  readonly id: string;
  readonly question: Question;
  sends: number;
  acked: boolean;
}

/**
 * Slack's side of Socket Mode: questions go out on the newest connection, and
 * every one not acknowledged is delivered again (retry_attempt + 1) on the next
 * connection, as Slack redelivers unacknowledged events.
 */
async function fakeSocketMode() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const envelopes = new Map<string, Envelope>();
  const sockets: WebSocket[] = [];
  const closed: WebSocket[] = [];
  const onAck: Array<(envelope: Envelope) => void> = [];
  const send = (socket: WebSocket, e: Envelope) => {
    socket.send(
      JSON.stringify({
        envelope_id: e.id,
        type: 'events_api',
        payload: JSON.parse(e.question.body),
        accepts_response_payload: false,
        retry_attempt: e.sends,
        retry_reason: e.sends > 0 ? 'timeout' : '',
      }),
    );
    e.sends += 1;
  };
  wss.on('connection', (socket: WebSocket) => {
    sockets.push(socket);
    socket.on('close', () => closed.push(socket));
    socket.on('message', (data: Buffer) => {
      const e = envelopes.get((JSON.parse(data.toString('utf8')) as { envelope_id: string }).envelope_id);
      if (!e || e.acked) return;
      e.acked = true;
      for (const listener of onAck) listener(e);
    });
    socket.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0CANDOR' } }));
    for (const e of envelopes.values()) if (!e.acked) send(socket, e);
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link`,
    envelopes,
    sockets,
    closed,
    onAck,
    /** Sends questions now on the newest connection (and again on later ones until acknowledged). */
    deliver(questions: Question[]): void {
      const socket = sockets.at(-1)!;
      for (const question of questions) {
        const e: Envelope = { id: `env-${question.eventId}`, question, sends: 0, acked: false };
        envelopes.set(e.id, e);
        send(socket, e);
      }
    },
    acked: () => [...envelopes.values()].filter((e) => e.acked),
    async close() {
      for (const s of sockets) s.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

/**
 * Socket Mode, killed with SIGKILL while some questions are acknowledged (their
 * replies on their way to a slow Slack) and others are on the wire, then started
 * again on the same data: every acknowledged question is answered exactly once,
 * and every unacknowledged one, delivered again on the new connection, too.
 */
describe('a Socket Mode server killed with questions in flight', () => {
  const dir = tempFiles({}, 'candor-socket-crash-');
  let server: CliRun | undefined;
  let sm: Awaited<ReturnType<typeof fakeSocketMode>> | undefined;
  let slack: SlowSlack | undefined;
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await sm?.close();
    await slack?.close();
    dir.cleanup();
  });

  it('answers every acknowledged question once, and the redelivered unacknowledged ones too', async () => {
    const started = Date.now();
    sm = await fakeSocketMode();
    slack = await slowSlack(sm.url);
    const env: Record<string, string> = {
      CANDOR_DATA_DIR: await migratedStore(dir.path('data')),
      PORT: '0',
      LOG_LEVEL: 'warn',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: 'xapp-1-A0CANDOR-test',
      SLACK_API_URL: `${slack.url}/api/`,
      CANDOR_INBOX_POLL_MS: '200',
      // Replies in flight at the kill are looked for 5 s after they were sent (Slack accepts each after 3 s).
      SLACK_SEND_SETTLE_MS: '5000',
    };
    // The KB is set up in this process (the bin's entry point); the server, killed and started again, is a process of its own.
    const facts = dir.write('facts.jsonl', FACTS.map((f) => JSON.stringify(f)).join('\n'));
    const ingest = await candorInProcess(['ingest', facts, '--kb', 'default'], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    // Storing the second wave takes a while (a trigger sleeps 0.1 s a row): a receiver that acknowledged before
    // storing would be killed between the two, and the question would be lost.
    const setup = await openStore({ dataDir: env.CANDOR_DATA_DIR! });
    await setup.db.execute(sql`create function slow_inbox() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.1); return new; end $$`);
    await setup.db.execute(sql`create trigger slow_inbox before insert on inbox for each row
      when (new.event_id like 'EvSLOW%') execute function slow_inbox()`);
    await setup.close();
    server = runCli(['serve'], env);
    await server.serving(60_000);
    await waitFor(() => sm!.sockets.length > 0, 30_000, 'the Socket Mode connection');

    const questions = Array.from({ length: EVENTS }, (_, i) =>
      slackEvent({
        text: `<@${BOT_USER}> What does MediShield Life cover? (${i})`,
        channel: CHANNEL,
        ...(i >= 20 && i < 40 ? { eventId: `EvSLOW${Date.now().toString(36)}${i}` } : {}),
      }),
    );
    const [first, second, last] = [questions.slice(0, 20), questions.slice(20, 40), questions.slice(40)];
    // The first 20 are acknowledged and their replies are on their way (Slack holds each for 4 s).
    sm.deliver(first);
    await waitFor(() => sm!.acked().length === first.length, 30_000, 'the first questions acknowledged');
    await waitFor(() => slack!.callsTo('/api/chat.postMessage').length >= 4, 30_000, 'replies in flight');
    // At the first acknowledgement of the next 20, the last 10 go out and the server is killed: they are on the wire.
    const victim = server;
    let fired = false;
    const killed = new Promise<void>((resolve) =>
      sm!.onAck.push((e) => {
        if (fired || !second.includes(e.question)) return;
        fired = true;
        sm!.deliver(last);
        victim.child.kill('SIGKILL');
        resolve();
      }),
    );
    sm.deliver(second);
    await killed;
    await victim.exited;
    // What reached Slack from the dead process counts as acknowledged, down to the last byte it wrote.
    await waitFor(() => sm!.closed.length === sm!.sockets.length, 30_000, 'the dead connection closed');
    const ackedAtKill = new Set(sm.acked().map((e) => e.question.eventId));
    const posts = (q: Question) => slack!.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === q.ts);
    const postedAtKill = new Set(questions.filter((q) => posts(q).length > 0).map((q) => q.eventId));
    expect(ackedAtKill.size).toBeGreaterThan(first.length);
    expect(ackedAtKill.size).toBeLessThan(EVENTS);
    expect(postedAtKill.size).toBeGreaterThan(0);

    slack.slow = false;
    server = runCli(['serve'], env);
    await server.serving(60_000);
    await waitFor(() => questions.every((q) => posts(q).length > 0), 90_000).catch((error: unknown) => {
      const lost = questions.filter((q) => ackedAtKill.has(q.eventId) && posts(q).length === 0).length;
      throw new Error(`${lost} acknowledged questions never answered`, { cause: error });
    });
    await waitFor(() => sm!.acked().length === EVENTS, 30_000, 'every question acknowledged');
    // A reply in flight at the kill is looked for in its thread once SLACK_SEND_SETTLE_MS has passed since it was
    // sent, and only then is its row done: a restart quicker than that still holds such rows. Stop when none is left.
    const metricsUrl = `${await server.serving()}/metrics`;
    await waitFor(
      async () => {
        const pending = /^candor_inbox_pending\{[^}]*channel="slack"[^}]*\} (\d+)/m.exec(await (await fetch(metricsUrl)).text());
        if (pending?.[1] === '0') return true;
        await sleep(250);
        return false;
      },
      60_000,
      'no question left in the inbox',
    );
    const redelivered = [...sm.envelopes.values()].filter((e) => !ackedAtKill.has(e.question.eventId));
    for (const e of redelivered) expect(e.sends, e.id).toBeGreaterThan(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // No more posts after a clean stop: the counts are final.
    for (const q of questions) expect(posts(q), q.eventId).toHaveLength(1);
    for (const q of questions) expect(String(posts(q)[0]!.body.text)).toContain('MediShield Life covers large hospital bills');
    const after = await openStore({ dataDir: env.CANDOR_DATA_DIR! });
    try {
      const count = async (query: ReturnType<typeof sql>) =>
        ((await after.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n;
      expect(await count(sql`select count(*)::int as n from interactions where channel = 'slack' and status = 'done'`)).toBe(EVENTS);
      expect(await count(sql`select count(*)::int as n from inbox where status <> 'done'`)).toBe(0);
    } finally {
      await after.close();
    }
    process.stderr.write(
      `[socket crash] ${ackedAtKill.size} of ${EVENTS} acknowledged and ${postedAtKill.size} replies sent before the kill; ` +
        `${redelivered.length} delivered again; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }, 240_000);
});
