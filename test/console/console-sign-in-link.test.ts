import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { consoleSettings } from '../../src/config/console-settings.js';
import { createConsoleFactEdits, createConsoleReads } from '../../src/console/console-reads.js';
import { createConsoleSessions } from '../../src/console/console-sessions.js';
import { consoleRoutes } from '../../src/console/pages/console-routes.js';
import { consoleStartLine, SIGN_IN_LINK_MS, signInLinks, type SignInLinks } from '../../src/console/pages/sign-in-link.js';
import { SIGN_IN_FAILURES, SIGN_IN_WINDOW_MS } from '../../src/console/pages/sign-in-throttle.js';
import { testConfig } from '../support/compose.js';

const TOKEN = 'console-token-for-sign-in-links-0123456789';
const SPENT = 'That sign-in link no longer works';

/** The one-time sign-in link `candor serve` prints, over real HTTP with the console's clock in the test's hands. */
describe('a console sign-in link', () => {
  let app: Candor;
  let server: RunningServer;
  let links: SignInLinks;
  let now = Date.parse('2026-03-02T09:00:00Z');
  /** A sign-in window of its own for each test: the failures of the others have left it. */
  const freshWindow = () => (now += SIGN_IN_WINDOW_MS + 1_000);

  beforeAll(async () => {
    app = await buildCandor(testConfig({ CANDOR_CONSOLE_TOKEN: TOKEN }));
    const sessions = createConsoleSessions(app.store.db);
    links = signInLinks(sessions, { now: () => now });
    const routes = consoleRoutes({
      reads: createConsoleReads(app.store.db, app.indexes),
      facts: createConsoleFactEdits(app.store.db),
      ask: app.ask,
      settings: app.config.console,
      defaultKb: 'default',
      maxBodyBytes: 65_536,
      now: () => now,
      sessions,
    });
    server = await startHttpServer([routes], { host: '127.0.0.1', port: 0, log: app.log });
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  const follow = (code: string, headers: Record<string, string> = {}) => get(`/login?code=${encodeURIComponent(code)}`, headers);
  const cookieOf = (res: Response) => res.headers.get('set-cookie')?.split(';')[0];

  it('signs a browser in once, with a session of its own as the token would give, and sends it to the overview', async () => {
    freshWindow();
    const signedIn = await follow(await links.issue());
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/');
    const setCookie = signedIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^candor_console=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);

    const byToken = await fetch(`${server.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ token: TOKEN, next: '/' }).toString(),
    });
    expect(cookieOf(byToken)).toMatch(/^candor_console=[\w-]{43}$/);
    expect(cookieOf(byToken)).not.toBe(cookieOf(signedIn)); // the same instant, yet a session of its own

    const overview = await get('/', { cookie: cookieOf(signedIn)! });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('Overview');
  });

  it('a second use of the same link gets the sign-in page saying why, and no session', async () => {
    freshWindow();
    const code = await links.issue();
    expect((await follow(code)).status).toBe(303);
    const again = await follow(code);
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    const page = await again.text();
    expect(page).toContain(SPENT);
    expect(page).toContain('<form method="post" action="/login">');
  });

  it('expires 15 minutes after it was issued', async () => {
    freshWindow();
    const late = await links.issue();
    const justInTime = await links.issue();
    now += SIGN_IN_LINK_MS - 1;
    expect((await follow(justInTime)).status).toBe(303);
    now += 1;
    const expired = await follow(late);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('set-cookie')).toBeNull();
    expect(await expired.text()).toContain(SPENT);
  });

  it('a wrong code is refused and counts toward the sign-in throttle, which then holds back even a good link', async () => {
    freshWindow();
    for (let i = 0; i < SIGN_IN_FAILURES; i++) {
      const wrong = await follow(`guessed-code-${i}`);
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain(SPENT);
    }
    const code = await links.issue();
    const held = await follow(code);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    now += SIGN_IN_WINDOW_MS;
    expect((await follow(code)).status).toBe(303); // the throttle did not spend it
  });

  it('a browser already signed in that follows a spent link is sent to the overview, not asked to sign in', async () => {
    freshWindow();
    const code = await links.issue();
    const cookie = cookieOf(await follow(code))!;
    const again = await follow(code, { cookie });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/');
    expect(again.headers.get('set-cookie')).toBeNull();
  });
});

describe('the Console line serve prints', () => {
  const url = 'http://127.0.0.1:3000';
  let app: Candor;
  let links: SignInLinks;
  beforeAll(async () => {
    app = await buildCandor(testConfig());
    links = signInLinks(createConsoleSessions(app.store.db));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('with a token: a one-time link with a fresh code of 256 bits each start, never the token', async () => {
    const settings = consoleSettings({ CANDOR_CONSOLE_TOKEN: TOKEN });
    const first = await consoleStartLine(url, settings, { production: false, links });
    const second = await consoleStartLine(url, settings, { production: false, links });
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:3000\/login\?code=[\w-]{43} \(a sign-in link: works once, for 15 minutes; /);
    const code = (line: string) => /code=([\w-]+)/.exec(line)![1]!;
    expect(code(first)).not.toBe(code(second));
    expect(first).not.toContain(TOKEN);
    expect(await links.redeem(code(first))).toBe(true);
  });

  it('in production (whose output is kept in logs): the address and where the token comes from, no link', async () => {
    const line = await consoleStartLine(url, consoleSettings({ CANDOR_CONSOLE_TOKEN: TOKEN }), { production: true, links });
    expect(line).toBe('http://127.0.0.1:3000/ (sign in with CANDOR_CONSOLE_TOKEN; no sign-in link is printed in production)');
  });

  it('with basic auth only: where the credentials come from, never a password', async () => {
    const line = await consoleStartLine(url, consoleSettings({ CANDOR_CONSOLE_BASIC_AUTH: 'dana:correct horse battery' }), {
      production: false,
      links,
    });
    expect(line).toBe('http://127.0.0.1:3000/ (sign in with a user and password from CANDOR_CONSOLE_BASIC_AUTH)');
  });

  it('off: how to turn it on', async () => {
    expect(await consoleStartLine(url, consoleSettings({}), { production: false, links })).toBe(
      'off (set CANDOR_CONSOLE_TOKEN or CANDOR_CONSOLE_BASIC_AUTH to open it)',
    );
  });
});
