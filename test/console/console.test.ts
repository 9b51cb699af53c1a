import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { consoleSettings } from '../../src/config/console-settings.js';
import { reviewSamplesPage } from '../../src/console/console-queries.js';
import { createConsoleFactEdits, createConsoleReads } from '../../src/console/console-reads.js';
import { createConsoleSessions } from '../../src/console/console-sessions.js';
import { consoleRoutes } from '../../src/console/pages/console-routes.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { agreementDeps } from '../../src/review/judge/agreement-deps.js';
import { runAgreementReport } from '../../src/review/judge/agreement-job.js';
import { setLabel } from '../../src/review/label-store.js';
import { sampleInteractions } from '../../src/review/sample-interactions.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

const TOKEN = 'console-token-for-tests-0123456789';
const BASIC = { user: 'kb-owner', password: 'correct horse battery' };
/** Markup with the layout whitespace between tags and inside text collapsed, as a browser reads it. */
const squeeze = (html: string) => html.replace(/>\s+</g, '><').replace(/\s+/g, ' ');
const PAGES = ['/', '/interactions', '/interactions/1', '/gaps', '/facts', '/review', '/agreement', '/ask'];

/** The console over real HTTP with the real app behind it, as `candor serve` wires it. */
describe('the console', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let app: Candor;
  let server: RunningServer;
  let off: RunningServer;
  let now = Date.now();

  beforeAll(async () => {
    app = await buildCandor(
      testConfig({ CANDOR_KB: 'handbook', CANDOR_CONSOLE_TOKEN: TOKEN, CANDOR_CONSOLE_BASIC_AUTH: `${BASIC.user}:${BASIC.password}` }),
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    const deps = {
      reads: createConsoleReads(app.store.db, app.indexes),
      facts: createConsoleFactEdits(app.store.db),
      ask: app.ask,
      defaultKb: 'handbook',
      maxBodyBytes: 65_536,
      now: () => now,
      sessions: createConsoleSessions(app.store.db),
    };
    server = await startHttpServer(
      [apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [] }), consoleRoutes({ ...deps, settings: app.config.console })],
      { host: '127.0.0.1', port: 0, log: app.log },
    );
    off = await startHttpServer([consoleRoutes({ ...deps, settings: consoleSettings({}) })], { host: '127.0.0.1', port: 0, log: app.log });
    for (const question of [
      'How many days of annual leave do full-time staff receive?',
      'What does ADR-0050 say about parking? <script>alert(1)</script>',
      'Is there a shuttle bus from the station?',
    ]) {
      await app.ask({ question, kb: 'handbook', channel: 'slack' });
    }
  });
  afterAll(async () => {
    await server?.stop(500);
    await off?.stop(500);
    await app?.close();
    files.cleanup();
  });

  const get = (path: string, headers: Record<string, string> = {}, base = server.url) =>
    fetch(`${base}${path}`, { headers, redirect: 'manual' });
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
  const login = (token: string, next = '/') =>
    fetch(`${server.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ token, next }).toString(),
    });

  describe('refuses without credentials', () => {
    it('every page is a 401 sign-in form, not the data', async () => {
      for (const path of PAGES) {
        const res = await get(path);
        expect(res.status, path).toBe(401);
        const body = await res.text();
        expect(body, path).toContain('Sign in with the console token');
        expect(body, path).not.toContain('annual leave');
      }
    });

    it('a wrong token, wrong basic-auth password or unknown user is refused', async () => {
      expect((await get('/', { authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
      expect((await get('/', basic(BASIC.user, 'wrong password!'))).status).toBe(401);
      expect((await get('/', basic('mallory', BASIC.password))).status).toBe(401);
      expect((await login('not-the-token-at-all')).status).toBe(401);
    });

    it('a forged, tampered or expired session cookie is refused', async () => {
      const cookie = (await login(TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
      const [name, value] = cookie.split('=');
      expect((await get('/', { cookie: `${name}=${value!.slice(1)}x` })).status).toBe(401);
      expect((await get('/', { cookie: `${name}=${Math.floor(Date.now() / 1000) + 3600}.forged-signature` })).status).toBe(401);
      const saved = now;
      now += 13 * 3600 * 1000;
      expect((await get('/', { cookie })).status).toBe(401);
      now = saved;
      expect((await get('/', { cookie })).status).toBe(200);
    });

    it('a session cookie with malformed percent-encoding is refused (401), not an error', async () => {
      const res = await get('/', { cookie: 'candor_console=%E0%A4%A' });
      expect(res.status).toBe(401);
      expect(await res.text()).toContain('<form');
    });

    it('throttles sign-in per client: after ten failures in a minute even the right token waits (429), then works', async () => {
      now += 120_000; // a window of its own: the failures of the tests above have left it
      for (let i = 0; i < 10; i++) expect((await login(`wrong-token-number-${i}`)).status).toBe(401);
      const refused = await login(TOKEN);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await get('/', bearer)).status).toBe(429);
      // A request with no credentials is not an attempt: it still gets the sign-in form.
      expect((await get('/')).status).toBe(401);
      now += 61_000;
      expect((await login(TOKEN)).status).toBe(303);
    });

    it('is off (404, saying how to turn it on) when neither a token nor basic auth is configured, even for the right token', async () => {
      const res = await get('/', bearer, off.url);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('CANDOR_CONSOLE_TOKEN');
    });

    it('with basic auth only, asks the browser for credentials (WWW-Authenticate) and has no token form', async () => {
      const basicOnly = await startHttpServer(
        [
          consoleRoutes({
            reads: createConsoleReads(app.store.db, app.indexes),
            facts: createConsoleFactEdits(app.store.db),
            ask: app.ask,
            defaultKb: 'handbook',
            maxBodyBytes: 65_536,
            sessions: createConsoleSessions(app.store.db),
            settings: consoleSettings({ CANDOR_CONSOLE_BASIC_AUTH: `${BASIC.user}:${BASIC.password}` }),
          }),
        ],
        { host: '127.0.0.1', port: 0, log: app.log },
      );
      try {
        for (const path of ['/', '/login']) {
          const res = await get(path, {}, basicOnly.url);
          expect(res.status, path).toBe(401);
          expect(res.headers.get('www-authenticate')).toBe('Basic realm="Candor console", charset="UTF-8"');
        }
        expect((await get('/', bearer, basicOnly.url)).status).toBe(401); // no token configured: a bearer token means nothing
        expect((await get('/', basic(BASIC.user, BASIC.password), basicOnly.url)).status).toBe(200);
      } finally {
        await basicOnly.stop(500);
      }
    });

    it('refuses a cross-site form post even with valid credentials', async () => {
      const res = await fetch(`${server.url}/ask`, {
        method: 'POST',
        headers: { ...bearer, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'question=hi',
      });
      expect(res.status).toBe(403);
    });
  });

  it('signs in with the token: an HttpOnly, SameSite=Strict session, and back to where you were going (never off-site)', async () => {
    const res = await login(TOKEN, '/gaps?days=7');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/gaps?days=7');
    expect(res.headers.get('set-cookie')).toMatch(/^candor_console=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect((await login(TOKEN, '//evil.example/x')).headers.get('location')).toBe('/');
    expect((await login(TOKEN, 'https://evil.example/')).headers.get('location')).toBe('/');
  });

  it('serves every page to a signed-in viewer, with a strict CSP and no scripts', async () => {
    for (const headers of [bearer, basic(BASIC.user, BASIC.password)]) {
      for (const path of PAGES) {
        const res = await get(path, headers);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
        const body = await res.text();
        expect(body).not.toMatch(/<script/i);
      }
    }
  });

  it('the overview counts the asks by decision, and charts them as SVG', async () => {
    const body = squeeze(await (await get('/', bearer)).text());
    expect(body).toMatch(/data-testid="asks-total">3</);
    expect(body).toMatch(/data-testid="answered-total">1</);
    expect(body).toMatch(/data-testid="abstained-total">2</);
    expect(body).toContain('<svg');
    expect(body).toContain('unknown_entity');
  });

  it('an interaction shows every layer, the answerability score with its pulls, and the trace id; stored text is escaped', async () => {
    const list = await (await get('/interactions?decision=abstain&reason=unknown_entity', bearer)).text();
    const id = /href="\/interactions\/(\d+)"/.exec(list)?.[1];
    expect(id).toBeDefined();
    expect(list).not.toContain('annual leave'); // filtered out
    const body = squeeze(await (await get(`/interactions/${id}`, bearer)).text());
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>alert(1)');
    expect(body).toMatch(/<td>entity<\/td><td class="fail">refuse<\/td><td class="mono">unknown_entity<\/td>/);
    expect(body).toMatch(/data-testid="trace-id">[0-9a-f]{32}</);
    expect(body).toMatch(/data-testid="answerability-score">[\d.]+</);
    expect((body.match(/<tr><td>\w+<\/td><td class="num">[-\d.]+<\/td><td class="num">[+-]?[\d.]+<\/td>/g) ?? []).length).toBeGreaterThan(
      0,
    );
    expect((await get('/interactions/999999', bearer)).status).toBe(404);
  });

  it('the review page lists samples with each label and who gave it', async () => {
    const [picked] = await sampleInteractions(app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 1, seed: 3 });
    await setLabel(app.store.db, {
      sampleId: picked!.sampleId,
      task: 'abstention',
      annotator: 'slack:U123',
      value: 'correct',
      via: 'reaction',
    });
    const body = squeeze(await (await get('/review', bearer)).text());
    expect(body).toMatch(/<span class="mono">abstention<\/span>: correct <span class="muted">by slack:U123<\/span>/);
  });

  it('the agreement page shows the latest report per task and each judge version’s kappa over the reports', async () => {
    await sampleInteractions(app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 10, seed: 5 });
    const ids = (await reviewSamplesPage(app.store.db)).map((s) => s.sampleId);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    // Two people and a judge label every sample; the judge disagrees with them on the first.
    for (const [i, sampleId] of ids.entries()) {
      const human = i % 2 === 0 ? 'correct' : 'incorrect';
      for (const annotator of ['slack:U123', 'slack:U456'])
        await setLabel(app.store.db, { sampleId, task: 'abstention', annotator, value: human, via: 'reaction' });
      await setLabel(app.store.db, {
        sampleId,
        task: 'abstention',
        annotator: 'llm:strict@2',
        value: i === 0 ? 'incorrect' : human,
        via: 'judge',
      });
    }
    expect((await runAgreementReport(agreementDeps(app), 'manual:first')).status).toBe('created');
    expect((await runAgreementReport(agreementDeps(app), 'manual:second')).status).toBe('created');
    const body = squeeze(await (await get('/agreement', bearer)).text());
    expect(body).toContain('2 reports stored');
    expect(body).toMatch(/<td class="mono">llm:strict@2<\/td><td class="num">\d+<\/td>/);
    expect(body).toMatch(/<svg[^>]*aria-label="Cohen&#39;s kappa by judge version over reports: abstention"/);
    expect((body.match(/<circle class="s-0"/g) ?? []).length).toBe(2); // one point per report
  });

  it('the ask box asks through the one ask path (channel console) and shows why', async () => {
    const res = await fetch(`${server.url}/ask`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ question: 'How much does a staff parking permit cost?', kb: 'handbook' }).toString(),
    });
    expect(res.status).toBe(200);
    const body = squeeze(await res.text());
    expect(body).toContain('$45 per month');
    expect(body).toMatch(/<a href="\/interactions\/\d+">interaction \d+<\/a>/);
    const empty = await fetch(`${server.url}/ask`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'question=%20%20',
    });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('role="alert"');
  });
});
