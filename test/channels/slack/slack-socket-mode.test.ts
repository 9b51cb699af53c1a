import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

import { sleep, waitFor, type FakeServer } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { BOT_USER, slackEvent, startFakeSlack, startSlackRig, type SlackRig } from './slack-harness.js';

// Socket Mode offline: apps.connections.open on the fake Web API hands out a local ws:// URL,
// and a local WebSocket server plays Slack's side of the connection.
let slack: FakeServer;
let wss: WebSocketServer;
let rig: SlackRig;
let kb: { cleanup: () => void };
const sockets: WebSocket[] = [];
const acks: Array<{ envelope_id: string }> = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link`;
  wss.on('connection', (socket: WebSocket) => {
    sockets.push(socket);
    socket.on('message', (data: Buffer) => acks.push(JSON.parse(data.toString('utf8')) as { envelope_id: string }));
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

function deliver(envelopeId: string, body: string, retryAttempt = 0): void {
  const socket = sockets.at(-1);
  if (!socket) throw new Error('no Socket Mode connection');
  socket.send(
    JSON.stringify({
      envelope_id: envelopeId,
      payload: JSON.parse(body),
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: retryAttempt,
      retry_reason: retryAttempt ? 'timeout' : '',
    }),
  );
}

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
});
