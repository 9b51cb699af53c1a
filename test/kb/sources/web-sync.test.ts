import { createServer } from 'node:net';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { webConnectorFor } from '../../../src/app/source-sync.js';
import { DEFAULT_INGEST_LIMITS } from '../../../src/config/ingest-limits.js';
import { addSource, type NewSource } from '../../../src/kb/sources/source-records.js';
import { syncSourcesNow, type SourceRunnerDeps } from '../../../src/kb/sources/source-runner.js';
import type { Db } from '../../../src/store/open-store.js';
import { facts, knowledgeBases } from '../../../src/store/schema.js';
import { startFakeSite, type FakeSite } from '../../support/fake-site.js';
import { DRIVERS, useTestStore } from '../../support/stores.js';

const page = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
const sitemap = (origin: string, paths: readonly string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`;

/** Serves `body` with an ETag, answering 304 to a request that sends it back. */
function withEtag(site: FakeSite, path: string, body: string, etag: string): void {
  site.route(path, (req, res) => {
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
  });
}

async function activeFacts(db: Db, kb: string): Promise<{ text: string; url: string | null }[]> {
  const rows = await db
    .select({ text: facts.text, url: facts.url })
    .from(facts)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
    .where(and(eq(knowledgeBases.name, kb), isNull(facts.retiredInVersion)));
  return rows.sort((a, b) => a.text.localeCompare(b.text));
}

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(DRIVERS)('web sources synced into their KB, at the wire (%s)', (driver) => {
  const used = useTestStore(driver);
  let site: FakeSite;
  let closed: FakeSite;
  const deps = (): SourceRunnerDeps => ({
    store: used.store,
    log: () => undefined,
    limits: { ...DEFAULT_INGEST_LIMITS, maxFileBytes: 1024 * 1024 },
    paceMs: 0,
    timeoutMs: 10_000,
    webConnector: webConnectorFor,
  });
  const add = (kb: string, source: string, more: Partial<NewSource> = {}) =>
    addSource(used.store.db, { kb, source, kind: 'web', everySeconds: 3600, include: null, maxPages: 100, ...more }, new Date());

  beforeAll(async () => {
    site = await startFakeSite();
    closed = await startFakeSite();
    closed.serve('/robots.txt', 'User-agent: *\nDisallow: /\n', { 'content-type': 'text/plain' });
    closed.serve('/sitemap.xml', sitemap(closed.origin, ['/a.html']), { 'content-type': 'application/xml' });
  });
  afterAll(async () => {
    await site?.close();
    await closed?.close();
  });

  it('a sitemap: pages stored with their URL as the link, 304s change nothing, a changed page and removed pages make one new version', async () => {
    const db = used.store.db;
    const o = site.origin;
    site.serve('/hr/sitemap.xml', sitemap(o, ['/hr/leave.html', '/hr/travel.html', '/hr/notes.txt']), {
      'content-type': 'application/xml',
    });
    withEtag(site, '/hr/leave.html', page('Leave', 'Staff get 25 days of annual leave.'), '"leave-1"');
    withEtag(site, '/hr/travel.html', page('Travel', 'Train travel is booked in standard class.'), '"travel-1"');
    site.serve('/hr/notes.txt', 'Desks are cleared on Fridays.\n', {
      'content-type': 'text/plain',
      'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT',
    });
    const source = (await add('intranet', `${o}/hr/sitemap.xml`))!;

    const [first] = await syncSourcesNow(deps(), { id: source.id });
    expect(first).toMatchObject({
      outcome: 'changed',
      documents: { fetched: 3, changed: 3, removed: 0, failed: 0 },
      version: 1,
      error: null,
    });
    expect(await activeFacts(db, 'intranet')).toEqual([
      { text: 'Desks are cleared on Fridays.', url: `${o}/hr/notes.txt` },
      { text: 'Staff get 25 days of annual leave.', url: `${o}/hr/leave.html` },
      { text: 'Train travel is booked in standard class.', url: `${o}/hr/travel.html` },
    ]);

    const [second] = await syncSourcesNow(deps(), { id: source.id });
    expect(second).toMatchObject({ outcome: 'unchanged', documents: { fetched: 3, changed: 0, removed: 0, failed: 0 }, version: 1 });
    expect(site.requestsTo('/hr/leave.html').at(-1)?.headers['if-none-match']).toBe('"leave-1"');
    expect(site.requestsTo('/hr/notes.txt').at(-1)?.headers['if-modified-since']).toBe('Mon, 02 Nov 2026 10:00:00 GMT');

    // leave.html changes, travel.html answers 404, notes.txt leaves the sitemap.
    withEtag(site, '/hr/leave.html', page('Leave', 'Staff get 27 days of annual leave.'), '"leave-2"');
    site.serve('/hr/travel.html', 'gone', { ':status': '404', 'content-type': 'text/plain' });
    site.serve('/hr/sitemap.xml', sitemap(o, ['/hr/leave.html', '/hr/travel.html']), { 'content-type': 'application/xml' });
    const [third] = await syncSourcesNow(deps(), { id: source.id });
    expect(third).toMatchObject({ outcome: 'changed', documents: { fetched: 2, changed: 1, removed: 2, failed: 0 }, version: 2 });
    expect(await activeFacts(db, 'intranet')).toEqual([{ text: 'Staff get 27 days of annual leave.', url: `${o}/hr/leave.html` }]);
  });

  it('every bad input is a recorded failure that keeps the KB’s facts, and the next sources still sync', async () => {
    const db = used.store.db;
    const o = site.origin;
    site.serve('/bad/ok.html', page('Parking', 'Parking permits cost 10 dollars a month.'));
    site.serve('/bad/sitemap.xml', sitemap(o, ['/bad/ok.html']), { 'content-type': 'application/xml' });
    const mixed = (await add('bad', `${o}/bad/sitemap.xml`))!;
    expect((await syncSourcesNow(deps(), { id: mixed.id }))[0]?.outcome).toBe('changed');
    const before = await activeFacts(db, 'bad');

    // Now every page of the sitemap fails, each its own way; then sources that fail whole; then a good one.
    site.serve('/bad/ok.html', 'down', { ':status': '500', 'content-type': 'text/plain' });
    site.redirect('/bad/loop-a.html', `${o}/bad/loop-b.html`);
    site.redirect('/bad/loop-b.html', `${o}/bad/loop-a.html`);
    site.serve('/bad/big.html', `<p>${'x'.repeat(2 * 1024 * 1024)}</p>`);
    site.serve('/bad/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), { 'content-type': 'image/png' });
    site.serve('/bad/sitemap.xml', sitemap(o, ['/bad/ok.html', '/bad/loop-a.html', '/bad/big.html', '/bad/logo.png']), {
      'content-type': 'application/xml',
    });
    const port = await closedPort();
    await add('bad', `http://127.0.0.1:${port}/sitemap.xml`);
    await add('bad', `${closed.origin}/sitemap.xml`);
    await add('bad', `${o}/not-a-sitemap.xml`);
    site.serve('/good.html', page('Gym', 'The gym opens at 6 am on weekdays.'));
    await add('bad', `${o}/good.html`);

    const results = await syncSourcesNow(deps(), { kb: 'bad' });
    expect(results.map((r) => [r.outcome, r.documents])).toEqual([
      ['failed', { fetched: 4, changed: 0, removed: 0, failed: 4 }],
      ['failed', { fetched: 0, changed: 0, removed: 0, failed: 0 }],
      ['failed', { fetched: 0, changed: 0, removed: 0, failed: 0 }],
      ['failed', { fetched: 0, changed: 0, removed: 0, failed: 0 }],
      ['changed', { fetched: 1, changed: 1, removed: 0, failed: 0 }],
    ]);
    const errors = results.map((r) => r.error ?? '');
    expect(errors[0]).toMatch(/ok\.html: .*500/);
    expect(errors[1]).toMatch(/ECONNREFUSED|refused|unreachable/i);
    expect(errors[2]).toMatch(/robots\.txt/);
    expect(errors[3]).toMatch(/404/);
    expect(await activeFacts(db, 'bad')).toEqual(
      [...before, { text: 'The gym opens at 6 am on weekdays.', url: `${o}/good.html` }].sort((a, b) => a.text.localeCompare(b.text)),
    );
    const failures = (await syncSourcesNow(deps(), { id: mixed.id }))[0]!;
    expect(failures.outcome).toBe('failed');
    const rows = await db.execute<{ key: string; state: string; last_error: string }>(
      // what the console's source page lists: each failing page with its reason
      sql`select key, state, last_error from source_documents where source_id = ${mixed.id} order by key`,
    );
    const reasons = Object.fromEntries(
      (rows as unknown as { rows: { key: string; last_error: string }[] }).rows.map((r) => [r.key.replace(o, ''), r.last_error]),
    );
    expect(reasons['/bad/ok.html']).toMatch(/500/);
    expect(reasons['/bad/loop-a.html']).toMatch(/redirect/i);
    expect(reasons['/bad/big.html']).toMatch(/CANDOR_INGEST_MAX_FILE_BYTES/);
    expect(reasons['/bad/logo.png']).toMatch(/image\/png/);
  });
});
