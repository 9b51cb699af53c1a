import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

import { createChatServices } from '../../../src/app/chat-services.js';
import { buildCandor } from '../../../src/app/main.js';
import { startSlackChannel } from '../../../src/channels/slack/slack-channel.js';
import { loadConfig } from '../../../src/config.js';
import { sleep, waitFor, type FakeServer } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { BOT_TOKEN, BOT_USER, slackEvent, startFakeSlack, startSlackRig, type SlackRig } from './slack-harness.js';

// Socket Mode offline: apps.connections.open on the fake Web API hands out a local ws:// URL,
// and a local WebSocket server plays Slack's side of the connection.
let slack: FakeServer;
let wss: WebSocketServer;
let rig: SlackRig;
let kb: { cleanup: () => void };
const sockets: WebSocket[] = [];
const acks: Array<{ envelope_id: string; payload?: Record<string, unknown> }> = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link`;
  wss.on('connection', (socket: WebSocket) => {
    sockets.push(socket);
    socket.on('message', (data: Buffer) => acks.push(JSON.parse(data.toString('utf8')) as (typeof acks)[number]));
    socket.send(
      JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'local' }, connection_info: { app_id: 'A0CANDOR' } }),
    );
  });
  slack = await startFakeSlack();
  slack.use((call) => (call.path === '/api/apps.connections.open' ? { body: { ok: true, url: wsUrl } } : undefined));
  rig = await startSlackRig({ slack, env: { SLACK_APP_TOKEN: 'xapp-1-A0CANDOR-test' } });
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  for (const s of sockets) s.terminate();
  if (wss) await new Promise((resolve) => wss.close(resolve));
  await slack?.close();
  kb?.cleanup();
});

function send(envelope: Record<string, unknown>): void {
  const socket = sockets.at(-1);
  if (!socket) throw new Error('no Socket Mode connection');
  socket.send(JSON.stringify(envelope));
}

function deliver(envelopeId: string, body: string, retryAttempt = 0): void {
  send({
    envelope_id: envelopeId,
    payload: JSON.parse(body),
    type: 'events_api',
    accepts_response_payload: false,
    retry_attempt: retryAttempt,
    retry_reason: retryAttempt ? 'timeout' : '',
  });
}

/** `/candor help` over the socket: Bolt's listener answers in the acknowledgement. */
function command(envelopeId: string): void {
  send({
    envelope_id: envelopeId,
    type: 'slash_commands',
    accepts_response_payload: true,
    payload: {
      token: 'legacy-verification-token',
      team_id: 'T0TEAM',
      channel_id: 'C0SOCKET',
      user_id: 'U0ASKER',
      command: '/candor',
      text: 'help',
      api_app_id: 'A0CANDOR',
      response_url: 'https://hooks.slack.invalid/commands/1',
      trigger_id: '1.2.3',
    },
  });
}

const ackOf = (envelopeId: string) => acks.find((a) => a.envelope_id === envelopeId);

describe('Slack Socket Mode (SLACK_APP_TOKEN set)', () => {
  it('connects with the app token and mounts no HTTP route', () => {
    expect(rig.channel.mode).toBe('socket');
    expect(rig.channel.route).toBeNull();
    const [open] = slack.callsTo('/api/apps.connections.open');
    expect(open!.headers.authorization).toBe('Bearer xapp-1-A0CANDOR-test');
    expect(sockets).toHaveLength(1);
  });

  it('acks the envelope, answers in the thread, and ignores the redelivery', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel: 'C0SOCKET' });
    deliver('env-1', ev.body);
    await waitFor(() => acks.some((a) => a.envelope_id === 'env-1'));
    const posts = () => slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === 'C0SOCKET');
    await waitFor(() => posts().length === 1);
    expect(posts()[0]!.body.thread_ts).toBe(ev.ts);
    expect(String(posts()[0]!.body.text)).toContain('MediShield Life covers large hospital bills');

    deliver('env-2', ev.body, 1);
    await waitFor(() => acks.some((a) => a.envelope_id === 'env-2'));
    await waitFor(() => rig.logs.some((l) => l.message === 'duplicate delivery ignored' && l.fields.eventId === ev.eventId));
    await sleep(100);
    expect(posts()).toHaveLength(1);
    expect(await rowsFor(rig.app.store.db, 'slack', ev.eventId)).toHaveLength(1);
  });

  it('sends the slash command reply in the acknowledgement', async () => {
    command('env-cmd');
    const ack = await waitFor(() => ackOf('env-cmd'));
    expect(ack.payload).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('/candor status') });
  });

  it('acknowledges a question only once it is stored: refused, it is not acknowledged; delivered again, it is', async () => {
    const { db } = rig.app.store;
    await db.execute(sql`create function refuse_inbox() returns trigger language plpgsql as $$
      begin raise exception 'disk full'; end $$`);
    await db.execute(sql`create trigger refuse_inbox before insert on inbox for each row execute function refuse_inbox()`);
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel: 'C0REFUSED' });
    try {
      deliver('env-refused', ev.body);
      await waitFor(() => rig.logs.some((l) => l.level === 'error' && l.message.includes('Could not store the question')));
      // The socket keeps order: once a later envelope's ack is in, an ack of the refused one would be too.
      command('env-after-refused');
      await waitFor(() => ackOf('env-after-refused'));
      expect(ackOf('env-refused')).toBeUndefined();
    } finally {
      await db.execute(sql`drop trigger refuse_inbox on inbox`);
      await db.execute(sql`drop function refuse_inbox()`);
    }

    deliver('env-redelivered', ev.body, 1);
    await waitFor(() => ackOf('env-redelivered'));
    const posts = () => slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === 'C0REFUSED');
    await waitFor(() => posts().length === 1);
    expect(posts()[0]!.body.thread_ts).toBe(ev.ts);
    expect(await rowsFor(rig.app.store.db, 'slack', ev.eventId)).toHaveLength(1);
  });
});

describe('Slack Socket Mode with a rejected app token', () => {
  it('stops start-up naming SLACK_APP_TOKEN and where to find a good one', async () => {
    const refusing = await startFakeSlack();
    refusing.use((call) => (call.path === '/api/apps.connections.open' ? { body: { ok: false, error: 'invalid_auth' } } : undefined));
    const app = await buildCandor(
      loadConfig({
        CANDOR_DATA_DIR: 'memory://',
        LOG_LEVEL: 'silent',
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_APP_TOKEN: 'xapp-1-A0CANDOR-revoked',
        SLACK_API_URL: `${refusing.url}/api/`,
      }),
      { telemetry: false },
    );
    try {
      await expect(startSlackChannel(createChatServices(app), { retries: 0 })).rejects.toThrow(
        /Slack rejected SLACK_APP_TOKEN \(invalid_auth\).*connections:write/,
      );
    } finally {
      await app.close();
      await refusing.close();
    }
  });
});
