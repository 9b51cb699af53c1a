import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { httpRoutes } from '../../src/app/serve.js';
import { sourceRunnerDeps } from '../../src/app/source-sync.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { kbStatus } from '../../src/kb/ingest/ingest.js';
import { addSource, findSource } from '../../src/kb/sources/source-records.js';
import { startSourceSchedule } from '../../src/kb/sources/source-runner.js';
import { tempFiles, testConfig } from '../support/compose.js';
import { basicAuth, consoleClient } from '../support/console-client.js';

const DANA = { user: 'dana', password: 'dana owns the handbook' };
const BOB = { user: 'bob', password: 'bob only reads here' };

const squeeze = (text: string) => text.replace(/>\s+</g, '><').replace(/\s+/g, ' ');

/**
 * The Sources page over real HTTP as serve wires it, with the schedule running: each source's freshness, and
 * "Sync now" for the KB's owners (its console experts) only, CSRF-checked; a pressed source is synced by the
 * schedule's next look.
 */
describe('the console’s Sources page', () => {
  const files = tempFiles({ 'unused.txt': '' }, 'candor-console-sources-');
  let app: Candor;
  let server: RunningServer;
  let schedule: { stop(): Promise<void> };
  let sourceId = 0;

  beforeAll(async () => {
    mkdirSync(files.path('policies'));
    writeFileSync(files.path('policies/leave.md'), '# Leave\n\nStaff get 25 days of annual leave.\n');
    app = await buildCandor(
      testConfig({
        CANDOR_CONSOLE_BASIC_AUTH: `${DANA.user}:${DANA.password},${BOB.user}:${BOB.password}`,
        CANDOR_EXPERTS: JSON.stringify([{ kb: 'handbook', people: ['console:dana'] }]),
        CANDOR_SOURCES_POLL_MS: '1000',
      }),
      { telemetry: false },
    );
    const row = await addSource(
      app.store.db,
      { kb: 'handbook', source: files.path('policies'), kind: 'folder', everySeconds: 86_400, include: null, maxPages: 100 },
      new Date(),
    );
    sourceId = row!.id;
    schedule = startSourceSchedule(sourceRunnerDeps(app), app.config.sources.pollMs);
    server = await startHttpServer(httpRoutes(app, []), { host: '127.0.0.1', port: 0, log: app.log });
  });
  afterAll(async () => {
    await schedule?.stop();
    await server?.stop();
    await app?.close();
    files.cleanup();
  });

  const { get, post, csrfOf } = consoleClient(() => server.url);

  it('the schedule syncs a new source at its first look', async () => {
    // Its first run is due at once.
    await expect
      .poll(async () => (await findSource(app.store.db, sourceId))?.lastOutcome, { timeout: 60_000, interval: 250 })
      .toBe('changed');
  });

  it('lists each source with its last sync, pages and next run; a non-owner sees why there is no Sync now', async () => {
    const res = await get('/sources', basicAuth(BOB));
    expect(res.status).toBe(200);
    const body = squeeze(await res.text());
    expect(body).toContain('<a href="/sources" aria-current="page">Sources</a>');
    expect(body).toMatch(
      new RegExp(`<tr data-source="${sourceId}"><td><a href="/sources/${sourceId}">${sourceId}</a></td><td>handbook</td>`),
    );
    expect(body).toMatch(/<td>1d<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC changed<\/td><td>1<\/td><td>1<\/td><td>0<\/td><td>0<\/td>/);
    expect(body).toContain('<button type="button" disabled title="“bob” is not an owner of “handbook”');
    expect(body).not.toContain(`action="/sources/${sourceId}/sync"`);
    const detail = squeeze(await (await get(`/sources/${sourceId}`, basicAuth(BOB))).text());
    expect(detail).toMatch(/<tr data-state="active"><td>leave\.md<\/td><td>in the KB<\/td>/);
    expect((await get('/sources/999', basicAuth(BOB))).status).toBe(404);
  });

  it('refuses Sync now from a non-owner or without the page’s CSRF token, and changes nothing', async () => {
    const before = await findSource(app.store.db, sourceId);
    expect((await post(`/sources/${sourceId}/sync`, { csrf: await csrfOf(BOB) }, basicAuth(BOB))).status).toBe(403);
    expect((await post(`/sources/${sourceId}/sync`, {}, basicAuth(DANA))).status).toBe(403);
    expect((await post(`/sources/${sourceId}/sync`, { csrf: await csrfOf(BOB) }, basicAuth(DANA))).status).toBe(403);
    expect((await findSource(app.store.db, sourceId))?.nextRunAt).toEqual(before?.nextRunAt);
  });

  it('Sync now by an owner queues the source, and the schedule syncs the change into a new version', async () => {
    writeFileSync(files.path('policies/leave.md'), '# Leave\n\nStaff get 27 days of annual leave.\n');
    const before = (await kbStatus(app.store.db, 'handbook'))!.version;
    const pressed = await post(`/sources/${sourceId}/sync`, { csrf: await csrfOf(DANA) }, basicAuth(DANA));
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`/sources?queued=${sourceId}`);
    const page = squeeze(await (await get(`/sources?queued=${sourceId}`, basicAuth(DANA))).text());
    expect(page).toContain(`Source ${sourceId} is queued: a server syncs it within 1 s.`);
    expect(page).toContain(`<form method="post" action="/sources/${sourceId}/sync">`);
    await expect.poll(async () => (await kbStatus(app.store.db, 'handbook'))?.version, { timeout: 60_000, interval: 250 }).toBe(before + 1);
    expect(await findSource(app.store.db, sourceId)).toMatchObject({
      lastOutcome: 'changed',
      lastCounts: { fetched: 1, changed: 1, removed: 0, failed: 0 },
    });
  });
});
