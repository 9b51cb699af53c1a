import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { createConsoleSessions } from '../../src/console/console-sessions.js';
import { signInLinks } from '../../src/console/pages/sign-in-link.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { testConfig } from '../support/compose.js';
import { consoleRoutesOn } from '../support/console-server.js';
import { createTestStore, DRIVERS, type TestStore } from '../support/stores.js';

const TOKEN = 'console-token-for-session-tests-0123456789';
const BASIC = { user: 'kb-owner', password: 'correct horse battery' };
const config = testConfig({ CANDOR_CONSOLE_TOKEN: TOKEN, CANDOR_CONSOLE_BASIC_AUTH: `${BASIC.user}:${BASIC.password}` });

/**
 * Console sessions over real HTTP, with two consoles (two replicas) on one database: PGlite (one process owns
 * its folder, so both serve from one store) and PostgreSQL (each replica opens its own pool). The consoles'
 * clock stands still, so two sign-ins happen in the same instant.
 */
describe.each(DRIVERS)('console sessions on %s', (driver) => {
  let shared: TestStore;
  let second: Store;
  let one: RunningServer;
  let other: RunningServer;
  const now = Date.parse('2026-03-02T09:00:00Z');

  const consoleOn = (store: Store) => {
    const routes = consoleRoutesOn(store, config, { now: () => now });
    return startHttpServer([routes], { host: '127.0.0.1', port: 0, log: () => undefined });
  };

  beforeAll(async () => {
    shared = await createTestStore(driver);
    second = shared.databaseUrl ? await openStore({ databaseUrl: shared.databaseUrl, dataDir: 'unused', poolSize: 2 }) : shared.store;
    one = await consoleOn(shared.store);
    other = await consoleOn(second);
  }, 60_000);
  afterAll(async () => {
    await one?.stop(500);
    await other?.stop(500);
    if (second !== shared?.store) await second?.close();
    await shared?.dispose();
  });

  const get = (server: RunningServer, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  const post = (server: RunningServer, path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
      body: new URLSearchParams(form).toString(),
    });
  /** Signs in with the token on `server`; the cookie header a browser would send back. */
  const signIn = async (server: RunningServer) => {
    const res = await post(server, '/login', { token: TOKEN, next: '/' });
    expect(res.status).toBe(303);
    return { cookie: res.headers.get('set-cookie')!.split(';')[0]! };
  };
  /** The CSRF token the ask page's form carries for this viewer. */
  const csrfOf = async (server: RunningServer, headers: Record<string, string>) => {
    const page = await (await get(server, '/ask', headers)).text();
    return /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  };
  const basic = { authorization: `Basic ${Buffer.from(`${BASIC.user}:${BASIC.password}`).toString('base64')}` };

  it('two sign-ins in the same instant get different sessions and different CSRF tokens, neither good for the other', async () => {
    const first = await signIn(one);
    const again = await signIn(one);
    expect(first.cookie).toMatch(/^candor_console=[\w-]{43}$/);
    expect(again.cookie).not.toBe(first.cookie);
    const [csrfFirst, csrfAgain] = [await csrfOf(one, first), await csrfOf(one, again)];
    expect(csrfFirst).toMatch(/^[\w-]{43}$/);
    expect(csrfAgain).not.toBe(csrfFirst);
    const crossed = await post(one, '/ask', { question: 'How much is parking?', csrf: csrfFirst! }, again);
    expect(crossed.status).toBe(403);
  });

  it('a session from one console is accepted by another on the same database', async () => {
    const session = await signIn(one);
    const overview = await get(other, '/', session);
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('Overview');
    // The CSRF token is the session's own, so a form from one replica's page posts to the other.
    const csrf = await csrfOf(one, session);
    expect(await csrfOf(other, session)).toBe(csrf);
  });

  it('a sign-in link printed by one console signs in on the other, once', async () => {
    const code = await signInLinks(createConsoleSessions(shared.store.db), { now: () => now }).issue();
    const followed = await get(other, `/login?code=${code}`);
    expect(followed.status).toBe(303);
    expect((await get(one, '/', { cookie: followed.headers.get('set-cookie')!.split(';')[0]! })).status).toBe(200);
    const again = await get(one, `/login?code=${code}`);
    expect(again.status).toBe(401);
    expect(await again.text()).toContain('That sign-in link no longer works');
  });

  it('Sign out revokes the session: a copy of the signed-out cookie is refused on every console, others stay signed in', async () => {
    const kept = await signIn(one);
    const session = await signIn(one);
    expect((await get(other, '/', session)).status).toBe(200);
    const out = await post(one, '/logout', {}, session);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/login');
    expect(out.headers.get('set-cookie')).toMatch(/^candor_console=; .*Max-Age=0/);
    for (const server of [one, other]) {
      const refused = await get(server, '/', session);
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain('Sign in with the console token');
      expect((await get(server, '/', kept)).status).toBe(200);
    }
  });

  it('sign out everywhere: only for the token holder; ends every session on every console and every unspent link', async () => {
    const admin = await signIn(one);
    const elsewhere = await signIn(other);
    const code = await signInLinks(createConsoleSessions(second.db), { now: () => now }).issue();
    const adminPage = await (await get(one, '/', admin)).text();
    expect(adminPage).toContain('Sign out everywhere');
    expect(await (await get(one, '/', basic)).text()).not.toContain('Sign out everywhere');

    const byBasic = await post(one, '/sign-out-everywhere', { csrf: (await csrfOf(one, basic))! }, basic);
    expect(byBasic.status).toBe(403);
    const withoutCsrf = await post(one, '/sign-out-everywhere', {}, admin);
    expect(withoutCsrf.status).toBe(403);
    expect((await get(other, '/', elsewhere)).status).toBe(200);

    const everywhere = await post(one, '/sign-out-everywhere', { csrf: (await csrfOf(one, admin))! }, admin);
    expect(everywhere.status).toBe(303);
    expect(everywhere.headers.get('location')).toBe('/login');
    for (const server of [one, other]) {
      expect((await get(server, '/', admin)).status).toBe(401);
      expect((await get(server, '/', elsewhere)).status).toBe(401);
    }
    expect((await get(one, `/login?code=${code}`)).status).toBe(401);
    // Basic auth and the token itself still work: a new sign-in is a new session.
    expect((await get(other, '/', basic)).status).toBe(200);
    expect((await get(other, '/', await signIn(one))).status).toBe(200);
  });

  it('a script holding the token signs everyone out with one request (Bearer, no CSRF token needed)', async () => {
    const session = await signIn(other);
    const res = await post(one, '/sign-out-everywhere', {}, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(303);
    expect((await get(other, '/', session)).status).toBe(401);
  });
});
