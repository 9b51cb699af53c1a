import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ListOutcome } from '../../../src/kb/sources/connector.js';
import { createWebConnector, parseWebSource, type WebConnectorOptions } from '../../../src/kb/sources/web/web-connector.js';
import { startFakeSite, type FakeSite } from '../../support/fake-site.js';

let site: FakeSite;
const signal = (): AbortSignal => new AbortController().signal;
const list = (path: string, options: WebConnectorOptions = {}): Promise<ListOutcome> =>
  createWebConnector(`${site.origin}${path}`, { paceMs: 0, ...options }).list(signal());
const xml = { 'content-type': 'application/xml' };
const urlset = (...entries: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;
const url = (loc: string, lastmod?: string): string => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
const index = (...locs: string[]): string =>
  `<sitemapindex>${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
const keys = (outcome: ListOutcome): string[] => (outcome.ok ? outcome.documents.map((d) => d.key.replace(site.origin, '')) : []);

beforeEach(async () => {
  site = await startFakeSite();
});
afterEach(async () => {
  await site.close();
});

describe('web connector: listing a page', () => {
  it('a page source lists itself, its URL both key and link, without fetching it', async () => {
    expect(await list('/handbook/leave.html#top')).toEqual({
      ok: true,
      documents: [{ key: `${site.origin}/handbook/leave.html`, url: `${site.origin}/handbook/leave.html`, versionToken: null }],
      notes: [],
    });
    expect(site.requests.map((r) => r.path)).toEqual(['/robots.txt']);
  });

  it('a page robots.txt disallows, or a site whose robots.txt answers 5xx, is not listed, with the reason', async () => {
    site.serve('/robots.txt', 'User-agent: *\nDisallow: /handbook/\n', { 'content-type': 'text/plain' });
    expect(await list('/handbook/leave.html')).toEqual({
      ok: false,
      reason: `robots.txt of ${site.origin} disallows /handbook/leave.html for CandorBot (Disallow: /handbook/)`,
    });
    expect(await list('/other.html')).toMatchObject({ ok: true });
    site.serve('/robots.txt', 'down', { ':status': '503' });
    expect(await list('/other.html')).toEqual({
      ok: false,
      reason: `robots.txt of ${site.origin} could not be read: HTTP 503 Service Unavailable; every page counts as disallowed (RFC 9309)`,
    });
  });

  it('robots.txt read per listing, honoured by fetch too (redirect targets included)', async () => {
    site.serve('/robots.txt', 'User-agent: CandorBot\nDisallow: /secret\n\nUser-agent: *\nDisallow: /', { 'content-type': 'text/plain' });
    site.serve('/open', 'open');
    site.serve('/secret', 'secret');
    site.redirect('/to-secret', '/secret');
    const web = createWebConnector(`${site.origin}/open`, { paceMs: 0 });
    expect(await web.list(signal())).toMatchObject({ ok: true });
    const doc = (path: string) => ({ key: `${site.origin}${path}`, url: `${site.origin}${path}`, versionToken: null });
    expect(await web.fetch(doc('/open'), null, signal())).toMatchObject({ kind: 'document' });
    expect(await web.fetch(doc('/secret'), null, signal())).toMatchObject({
      kind: 'failed',
      reason: expect.stringContaining('disallows /secret'),
    });
    expect(await web.fetch(doc('/to-secret'), null, signal())).toMatchObject({
      kind: 'failed',
      reason: expect.stringContaining('disallows /secret'),
    });
    expect(site.requestsTo('/secret')).toHaveLength(0);
    expect(site.requestsTo('/robots.txt')).toHaveLength(1);
  });
});

describe('web connector: listing a sitemap', () => {
  it('lists each <loc> of the site with its <lastmod> as version token, noting what it skipped', async () => {
    site.serve('/robots.txt', 'User-agent: *\nDisallow: /drafts/', { 'content-type': 'text/plain' });
    const o = site.origin;
    site.serve(
      '/sitemap.xml',
      urlset(
        url(`${o}/a.html`, '2026-01-02'),
        url(`${o}/policy.pdf`),
        url('https://elsewhere.example/x'),
        url(`${o}/drafts/1`),
        url(`${o}/a.html`),
      ),
      xml,
    );
    const outcome = await list('/sitemap.xml');
    expect(outcome).toEqual({
      ok: true,
      documents: [
        { key: `${o}/a.html`, url: `${o}/a.html`, versionToken: '2026-01-02' },
        { key: `${o}/policy.pdf`, url: `${o}/policy.pdf`, versionToken: null },
      ],
      notes: [
        `1 URL on other sites skipped (e.g. https://elsewhere.example/x): a source reads only ${o}`,
        `1 URL disallowed by robots.txt skipped (e.g. ${o}/drafts/1)`,
      ],
    });
  });

  it('follows nested sitemap indexes, reading each sitemap once whatever loops they hold', async () => {
    const o = site.origin;
    site.serve('/sitemap.xml', index(`${o}/pages.xml`, '/more/index.xml', `${o}/sitemap.xml`), xml);
    site.serve('/more/index.xml', index(`${o}/docs.xml.gz`, `${o}/sitemap.xml`, `${o}/pages.xml`), xml);
    site.serve('/pages.xml', urlset(url(`${o}/p1`), url(`${o}/p2`)), xml);
    site.serve('/docs.xml.gz', gzipSync(urlset(url(`${o}/d1.docx`, '2026-05-06'))), { 'content-type': 'application/gzip' });
    expect(keys(await list('/sitemap.xml'))).toEqual(['/p1', '/p2', '/d1.docx']);
    for (const path of ['/sitemap.xml', '/more/index.xml', '/pages.xml', '/docs.xml.gz'])
      expect(site.requestsTo(path), path).toHaveLength(1);
  });

  it('caps a sitemap of 100,000 URLs at max pages and says how many were left out', async () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => url(`${site.origin}/p/${i}`));
    site.serve('/sitemap.xml', urlset(...entries), xml);
    const outcome = await list('/sitemap.xml');
    expect(outcome.ok && outcome.documents.length).toBe(10_000);
    expect(outcome.ok && outcome.documents.at(-1)?.key).toBe(`${site.origin}/p/9999`);
    expect(outcome.ok && outcome.notes).toEqual(['90,000 pages left out: the source lists at most 10,000 pages (max pages)']);
  });

  it('stops reading further sitemaps of an index once max pages are listed', async () => {
    const o = site.origin;
    site.serve('/sitemap.xml', index('/s1.xml', '/s2.xml', '/s3.xml'), xml);
    for (const n of [1, 2, 3]) site.serve(`/s${n}.xml`, urlset(url(`${o}/${n}a`), url(`${o}/${n}b`)), xml);
    const outcome = await list('/sitemap.xml', { maxPages: 3 });
    expect(keys(outcome)).toEqual(['/1a', '/1b', '/2a']);
    expect(outcome.ok && outcome.notes).toEqual(['1 page left out, and 1 sitemap not read: the source lists at most 3 pages (max pages)']);
    expect(site.requestsTo('/s3.xml')).toHaveLength(0);
  });

  it('keeps only the pages matching the include glob', async () => {
    const o = site.origin;
    site.serve('/sitemap.xml', urlset(url(`${o}/policies/hr/leave.html`), url(`${o}/news/1`), url(`${o}/policies/it.pdf`)), xml);
    expect(keys(await list('/sitemap.xml', { include: '/policies/**' }))).toEqual(['/policies/hr/leave.html', '/policies/it.pdf']);
    const pdfs = await list('/sitemap.xml', { include: '**/*.pdf' });
    expect(keys(pdfs)).toEqual(['/policies/it.pdf']);
    expect(pdfs.ok && pdfs.notes).toEqual([`2 pages not matching the include glob **/*.pdf skipped (e.g. ${o}/policies/hr/leave.html)`]);
  });

  it('a sitemap named by an index that is gone is noted; one that fails fails the listing, so no page is taken for removed', async () => {
    const o = site.origin;
    site.serve('/sitemap.xml', index('/old.xml', '/pages.xml'), xml);
    site.serve('/pages.xml', urlset(url(`${o}/p1`)), xml);
    const outcome = await list('/sitemap.xml');
    expect(keys(outcome)).toEqual(['/p1']);
    expect(outcome.ok && outcome.notes).toEqual([`sitemap ${o}/old.xml: HTTP 404 Not Found: gone, its pages are not listed`]);
    site.serve('/old.xml', 'oops', { ':status': '500' });
    expect(await list('/sitemap.xml')).toEqual({ ok: false, reason: `sitemap ${o}/old.xml: HTTP 500 Internal Server Error` });
  });

  it('refuses a sitemap that is missing, is not a sitemap, or lists nothing this source may read', async () => {
    const o = site.origin;
    expect(await list('/sitemap.xml')).toEqual({ ok: false, reason: `sitemap ${o}/sitemap.xml: HTTP 404 Not Found` });
    site.serve('/sitemap.xml', '<!doctype html><html><body>Welcome</body></html>');
    expect(await list('/sitemap.xml')).toEqual({
      ok: false,
      reason: `sitemap ${o}/sitemap.xml: not a sitemap (no <urlset> or <sitemapindex>)`,
    });
    site.serve('/sitemap.xml', urlset(), xml);
    expect(await list('/sitemap.xml')).toEqual({ ok: false, reason: `sitemap ${o}/sitemap.xml lists no pages` });
    site.serve('/sitemap.xml', urlset(url('https://elsewhere.example/a'), url('mailto:x@y.z')), xml);
    expect(await list('/sitemap.xml')).toEqual({
      ok: false,
      reason: `sitemap ${o}/sitemap.xml lists no page this source may read: 1 URL on other sites, 1 <loc> not http(s) URLs`,
    });
  });

  it('robots.txt disallowing everything fails the listing; a robots.txt that is missing allows everything', async () => {
    site.serve('/sitemap.xml', urlset(url(`${site.origin}/a`)), xml);
    expect(keys(await list('/sitemap.xml'))).toEqual(['/a']);
    site.serve('/robots.txt', 'User-agent: *\nDisallow: /\n', { 'content-type': 'text/plain' });
    expect(await list('/sitemap.xml')).toEqual({
      ok: false,
      reason: `robots.txt of ${site.origin} disallows /sitemap.xml for CandorBot (Disallow: /)`,
    });
    site.serve('/robots.txt', 'User-agent: *\nAllow: /sitemap.xml\nDisallow: /\n', { 'content-type': 'text/plain' });
    expect(await list('/sitemap.xml')).toEqual({
      ok: false,
      reason: `sitemap ${site.origin}/sitemap.xml lists no page this source may read: 1 URL disallowed by robots.txt`,
    });
  });

  it('a sitemap over the size limit fails, gzip-compressed or not', async () => {
    const big = urlset(...Array.from({ length: 2000 }, (_, i) => url(`${site.origin}/p/${i}`)));
    site.serve('/sitemap.xml', big, xml);
    site.serve('/sitemap.xml.gz', gzipSync(big), { 'content-type': 'application/gzip' });
    const limit = { maxFileBytes: 10_000 };
    expect(await list('/sitemap.xml', limit)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('larger than the limit of 9.8 KiB'),
    });
    expect(await list('/sitemap.xml.gz', limit)).toMatchObject({ ok: false, reason: expect.stringContaining('once uncompressed') });
  });
});

describe('parseWebSource', () => {
  it('tells a sitemap from a page by its name, and refuses what is not an http(s) URL', () => {
    expect(parseWebSource('https://intranet/sitemap.xml')).toMatchObject({ ok: true, source: { kind: 'sitemap' } });
    expect(parseWebSource('https://intranet/sitemaps/pages.XML.gz')).toMatchObject({ ok: true, source: { kind: 'sitemap' } });
    expect(parseWebSource('https://intranet/handbook/')).toMatchObject({ ok: true, source: { kind: 'page' } });
    expect(parseWebSource('ftp://intranet/x')).toEqual({ ok: false, reason: 'not an http(s) URL: ftp://intranet/x' });
    expect(parseWebSource('intranet/x')).toEqual({ ok: false, reason: 'not a URL: intranet/x' });
    expect(parseWebSource('https://user:pw@intranet/x')).toMatchObject({ ok: false });
    expect(() => createWebConnector('not a url')).toThrow(/not a URL/);
  });
});
