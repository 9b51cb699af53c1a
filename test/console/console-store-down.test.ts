import { connect, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { testConfig } from '../support/compose.js';
import { consoleRoutesOn } from '../support/console-server.js';
import { createTestStore, DRIVERS, type TestStore } from '../support/stores.js';

const TOKEN = 'console-token-for-store-down-0123456789';
const config = testConfig({ CANDOR_CONSOLE_TOKEN: TOKEN });
const PAGES = [
  '/',
  '/interactions',
  '/interactions/1',
  '/interactions.csv',
  '/gaps',
  '/gaps/1',
  '/facts',
  '/review',
  '/review/1',
  '/agreement',
  '/ask',
];
const MESSAGE = 'The Candor console cannot reach its database right now';

/**
 * A store that goes away under a running console: the embedded one closed, or a PostgreSQL server that refuses
 * connections (a proxy in front of it that the test shuts). Every page, form and sign-in answers 503 with a
 * plain message and Retry-After, as the API does, never a 500.
 */
describe.each(DRIVERS)('the console while its store (%s) is down', (driver) => {
  let owned: TestStore;
  let store: Store;
  let proxy: { port: number; refuse(): Promise<void> } | undefined;
  let server: RunningServer;
  let session = '';
  const logged: string[] = [];

  beforeAll(async () => {
    owned = await createTestStore(driver);
    if (owned.databaseUrl) {
      const url = new URL(owned.databaseUrl);
      proxy = await tcpProxy(Number(url.port || 5432), url.hostname);
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      store = await openStore({ databaseUrl: url.toString(), dataDir: 'unused', poolSize: 2 });
    } else store = owned.store;
    const routes = consoleRoutesOn(store, config);
    server = await startHttpServer([routes], {
      host: '127.0.0.1',
      port: 0,
      log: (level, message) => void logged.push(`${level} ${message}`),
    });
    session = (await login()).headers.get('set-cookie')!.split(';')[0]!;
    expect((await get('/', { cookie: session })).status).toBe(200);
    // The store goes away.
    if (proxy) await proxy.refuse();
    else await store.close();
  }, 60_000);
  afterAll(async () => {
    await server?.stop(500);
    if (store !== owned?.store) await store?.close().catch(() => undefined);
    await owned?.dispose();
  });

  const get = (path: string, headers: Record<string, string>) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
      body: new URLSearchParams(form).toString(),
    });
  const login = () => post('/login', { token: TOKEN, next: '/' });
  const expectUnavailable = async (res: Response, what: string) => {
    expect(res.status, what).toBe(503);
    expect(res.headers.get('content-type'), what).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('retry-after'), what).toBe('5');
    expect(await res.text(), what).toContain(MESSAGE);
  };

  it('every page answers 503 with a plain message, to a session cookie and to a bearer token', async () => {
    for (const path of PAGES) {
      await expectUnavailable(await get(path, { cookie: session }), `${path} (session)`);
      await expectUnavailable(await get(path, { authorization: `Bearer ${TOKEN}` }), `${path} (bearer)`);
    }
  });

  it('every form answers 503: the ask box, the facts page, a gap answer, sign-in, sign out and sign out everywhere', async () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    await expectUnavailable(await post('/ask', { question: 'How much is a parking permit?' }, bearer), 'ask');
    await expectUnavailable(await post('/facts', { action: 'retire', fact: '1' }, bearer), 'facts');
    await expectUnavailable(await post('/gaps/1/answer', { text: 'An answer.' }, bearer), 'gap answer');
    await expectUnavailable(await login(), 'sign-in');
    await expectUnavailable(await post('/logout', {}, { cookie: session }), 'sign out');
    await expectUnavailable(await post('/sign-out-everywhere', {}, bearer), 'sign out everywhere');
  });

  it('logs no request as failed (a 500 is an error of ours; a store that is down is not)', () => {
    expect(logged.filter((line) => line.startsWith('error request failed'))).toEqual([]);
  });
});

/** A TCP proxy to a PostgreSQL server; `refuse` shuts it, so the database refuses connections as a stopped server does. */
async function tcpProxy(port: number, host: string): Promise<{ port: number; refuse(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    refuse: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
