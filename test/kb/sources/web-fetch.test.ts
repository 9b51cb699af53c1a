import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { FetchOutcome, ListedDocument } from '../../../src/kb/sources/connector.js';
import { createWebConnector, type WebConnectorOptions } from '../../../src/kb/sources/web/web-connector.js';
import { packageVersion } from '../../../src/kernel/version.js';
import { startFakeSite, type FakeSite } from '../../support/fake-site.js';

let site: FakeSite;
const signal = (): AbortSignal => new AbortController().signal;
const page = (path: string): ListedDocument => ({ key: `${site.origin}${path}`, url: `${site.origin}${path}`, versionToken: null });
const connector = (options: WebConnectorOptions = {}) => createWebConnector(`${site.origin}/`, { paceMs: 0, ...options });
const fetchOne = (path: string, options: WebConnectorOptions = {}): Promise<FetchOutcome> =>
  connector(options).fetch(page(path), null, signal());

beforeEach(async () => {
  site = await startFakeSite();
});
afterEach(async () => {
  await site.close();
});

describe('web connector: fetching a page', () => {
  it('reads a page as HTML with its validators, as CandorBot', async () => {
    site.serve('/leave.html', '<h1>Leave</h1>', { etag: '"v1"', 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' });
    const outcome = await fetchOne('/leave.html');
    expect(outcome).toMatchObject({
      kind: 'document',
      type: 'html',
      url: `${site.origin}/leave.html`,
      validators: { etag: '"v1"', lastModified: 'Mon, 02 Nov 2026 10:00:00 GMT' },
    });
    expect(Buffer.from((outcome as { bytes: Uint8Array }).bytes).toString()).toBe('<h1>Leave</h1>');
    expect(site.requestsTo('/leave.html')[0]?.headers['user-agent']).toBe(`CandorBot/${packageVersion()}`);
    expect(site.requestsTo('/robots.txt')).toHaveLength(1);
  });

  it('asks conditionally: a 304 to If-None-Match or If-Modified-Since is unchanged, keeping or renewing the validators', async () => {
    site.route('/etag', (req, res) =>
      req.headers['if-none-match'] === '"v1"' ? res.writeHead(304, { etag: '"v1"' }).end() : res.writeHead(200).end('x'),
    );
    site.route('/dated', (req, res) =>
      req.headers['if-modified-since'] === 'Mon, 02 Nov 2026 10:00:00 GMT' ? res.writeHead(304).end() : res.writeHead(200).end('x'),
    );
    const web = connector();
    expect(await web.fetch(page('/etag'), { etag: '"v1"', lastModified: null }, signal())).toEqual({
      kind: 'unchanged',
      validators: { etag: '"v1"', lastModified: null },
    });
    const lastModified = 'Mon, 02 Nov 2026 10:00:00 GMT';
    expect(await web.fetch(page('/dated'), { etag: null, lastModified }, signal())).toEqual({
      kind: 'unchanged',
      validators: { etag: null, lastModified },
    });
    expect(site.requestsTo('/dated')[0]?.headers['if-none-match']).toBeUndefined();
  });

  it('404 and 410 are gone; 500 and other errors fail with the status', async () => {
    site.serve('/removed', 'gone', { ':status': '410' });
    site.serve('/broken', 'oops', { ':status': '500' });
    site.serve('/private', 'no', { ':status': '403' });
    expect(await fetchOne('/missing')).toEqual({ kind: 'gone', reason: `HTTP 404 Not Found at ${site.origin}/missing` });
    expect(await fetchOne('/removed')).toMatchObject({ kind: 'gone', reason: expect.stringContaining('HTTP 410') });
    expect(await fetchOne('/broken')).toEqual({ kind: 'failed', reason: `HTTP 500 Internal Server Error at ${site.origin}/broken` });
    expect(await fetchOne('/private')).toMatchObject({ kind: 'failed', reason: expect.stringContaining('HTTP 403 Forbidden') });
  });

  it('reads the document types ingest reads, by content type (or by extension when the type says only "bytes")', async () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const types: [string, string, string][] = [
      ['/a', 'application/xhtml+xml', 'html'],
      ['/b.txt', 'text/plain; charset=utf-8', 'text'],
      ['/c', 'text/markdown', 'markdown'],
      ['/c.md', 'text/plain', 'markdown'],
      ['/d', 'application/pdf', 'pdf'],
      ['/e', docx, 'docx'],
      ['/f.pdf', 'application/octet-stream', 'pdf'],
    ];
    for (const [path, contentType] of types) site.serve(path, 'bytes', { 'content-type': contentType });
    const web = connector();
    for (const [path, , type] of types) expect(await web.fetch(page(path), null, signal()), path).toMatchObject({ kind: 'document', type });
  });

  it('refuses a type ingest does not read, without reading its body', async () => {
    site.serve('/logo.png', Buffer.alloc(10), { 'content-type': 'image/png' });
    site.serve('/data', '{}', { 'content-type': 'application/json' });
    expect(await fetchOne('/logo.png')).toEqual({
      kind: 'failed',
      reason: `not a document type (content-type image/png) at ${site.origin}/logo.png`,
    });
    expect(await fetchOne('/data')).toMatchObject({ kind: 'failed', reason: expect.stringContaining('content-type application/json') });
    site.serve('/sitemap', '<urlset/>', { 'content-type': 'application/xml' });
    expect(await fetchOne('/sitemap')).toMatchObject({
      reason: expect.stringContaining('a sitemap is read as one when its URL ends in .xml'),
    });
  });
});

describe('web connector: redirects', () => {
  it('follows redirects within the site (up to 5), the final URL being the citation link', async () => {
    site.redirect('/old', '/new', 301);
    site.serve('/new', 'new');
    for (let i = 0; i < 5; i++) site.redirect(`/hop${i}`, i === 4 ? '/new' : `/hop${i + 1}`);
    expect(await fetchOne('/old')).toMatchObject({ kind: 'document', url: `${site.origin}/new` });
    expect(await fetchOne('/hop0')).toMatchObject({ kind: 'document', url: `${site.origin}/new` });
  });

  it('refuses a loop, more than 5 redirects, and a redirect off the site (never asking the other site)', async () => {
    site.redirect('/a', '/b');
    site.redirect('/b', `${site.origin}/a`);
    for (let i = 0; i < 6; i++) site.redirect(`/hop${i}`, `/hop${i + 1}`);
    site.serve('/hop6', 'too far');
    const other = await startFakeSite();
    try {
      other.serve('/x', 'elsewhere');
      site.redirect('/away', `${other.origin}/x`);
      expect(await fetchOne('/a')).toEqual({
        kind: 'failed',
        reason: `redirect loop: ${site.origin}/a → ${site.origin}/b → ${site.origin}/a`,
      });
      expect(await fetchOne('/hop0')).toEqual({ kind: 'failed', reason: `more than 5 redirects from ${site.origin}/hop0` });
      expect(site.requestsTo('/hop6')).toHaveLength(0);
      const away = await fetchOne('/away');
      expect(away).toMatchObject({ kind: 'failed', reason: expect.stringContaining(`${other.origin}/x is not on the source's site`) });
      expect(other.requests).toHaveLength(0);
      expect(away).toMatchObject({
        reason: expect.stringContaining(`if the site moved to ${other.origin}, name that address as the source`),
      });
    } finally {
      await other.close();
    }
  });

  it('a redirect without a Location fails', async () => {
    site.route('/nowhere', (_req, res) => res.writeHead(302).end());
    expect(await fetchOne('/nowhere')).toMatchObject({ kind: 'failed', reason: expect.stringContaining('without a usable Location') });
  });
});

describe('web connector: limits and failures', () => {
  it('stops reading a page as it passes the size limit, and lets its connection go', async () => {
    const total = 50 * 1024 * 1024;
    let written = 0;
    let closedEarly: Promise<boolean> = Promise.resolve(false);
    site.route('/huge.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      closedEarly = new Promise((resolve) => res.on('close', () => resolve(!res.writableFinished)));
      void streamZeros(res, total, (n) => (written = n));
    });
    const outcome = await fetchOne('/huge.html', { maxFileBytes: 1024 * 1024 });
    expect(outcome).toEqual({
      kind: 'failed',
      reason: expect.stringMatching(/^larger than the limit of 1 MiB \(CANDOR_INGEST_MAX_FILE_BYTES=1048576\) \(stopped reading after/),
    });
    expect(await closedEarly).toBe(true);
    expect(written).toBeLessThan(total);
  });

  it('refuses a page whose declared length is over the limit before reading it', async () => {
    site.route('/declared', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
      res.write('<p>start');
    });
    expect(await fetchOne('/declared', { maxFileBytes: 1024 })).toEqual({
      kind: 'failed',
      reason: '50 MiB, larger than the limit of 1 KiB (CANDOR_INGEST_MAX_FILE_BYTES=1024)',
    });
  });

  it('a server that never answers fails after the request timeout; so does one that stalls mid-body', async () => {
    site.route('/silent', () => undefined);
    site.route('/stalls', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>half');
    });
    const reason = expect.stringContaining('within 300 ms (the request timeout)');
    expect(await fetchOne('/silent', { timeoutMs: 300 })).toEqual({ kind: 'failed', reason });
    expect(await fetchOne('/stalls', { timeoutMs: 300 })).toEqual({ kind: 'failed', reason });
  });

  it('an unreachable host fails listing and fetching with a one-line reason', async () => {
    const port = await closedPort();
    const web = createWebConnector(`http://127.0.0.1:${port}/handbook.html`, { paceMs: 0 });
    const listed = await web.list(signal());
    expect(listed).toEqual({ ok: false, reason: expect.stringContaining(`connection to 127.0.0.1:${port} refused`) });
    expect(listed).toMatchObject({ reason: expect.stringContaining('every page counts as disallowed (RFC 9309)') });
    const doc = { key: `http://127.0.0.1:${port}/handbook.html`, url: null, versionToken: null };
    expect(await web.fetch(doc, null, signal())).toMatchObject({ kind: 'failed', reason: expect.stringContaining('refused') });
  });

  it('a connection reset before any answer is asked again once; reset twice, the page fails saying so', async () => {
    let resets = 0;
    site.route('/flaky.html', (req, res) => {
      if (resets++ === 0) return void req.socket.destroy(); // as a kept-alive connection the server was closing
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Back again.</p>');
    });
    site.route('/broken.html', (req) => void req.socket.destroy());
    expect(await fetchOne('/flaky.html')).toMatchObject({ kind: 'document', type: 'html' });
    expect(site.requestsTo('/flaky.html')).toHaveLength(2);
    expect(await fetchOne('/broken.html')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/reset|closed the connection/) });
    expect(site.requestsTo('/broken.html')).toHaveLength(2);
  });

  it('a host name that does not resolve fails with a DNS reason', async () => {
    const web = createWebConnector('http://candor-test.invalid/page', { paceMs: 0, timeoutMs: 10_000 });
    expect(await web.list(signal())).toEqual({ ok: false, reason: expect.stringMatching(/candor-test\.invalid/) });
  });

  it('a cancelled sync ends a fetch as failed "cancelled", without a request', async () => {
    site.serve('/p', 'p');
    const controller = new AbortController();
    controller.abort();
    expect(await connector().fetch(page('/p'), null, controller.signal)).toEqual({ kind: 'failed', reason: 'cancelled' });
    expect(site.requestsTo('/p')).toHaveLength(0);
  });

  it('keeps requests to one host apart by the pace, across list and fetch', async () => {
    for (const path of ['/1', '/2', '/3']) site.serve(path, path);
    const web = createWebConnector(`${site.origin}/1`, { paceMs: 150 });
    expect(await web.list(signal())).toMatchObject({ ok: true });
    await Promise.all(['/1', '/2', '/3'].map((path) => web.fetch(page(path), null, signal())));
    const times = site.requests.map((r) => r.at);
    expect(site.requests.map((r) => r.path)).toEqual(['/robots.txt', '/1', '/2', '/3']);
    // four requests at least 150 ms apart span at least 450 ms; asserted with a wide margin, never an upper bound
    expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(300);
  });
});

/** Writes `total` zero bytes in 64 KiB chunks, waiting for the socket to drain; stops when the client goes away. */
async function streamZeros(res: ServerResponse, total: number, progress: (written: number) => void): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  while (written < total && !res.destroyed) {
    const more = res.write(chunk);
    written += chunk.length;
    progress(written);
    if (!more) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
  }
  if (!res.destroyed) res.end();
}

/** A loopback port nothing listens on (one that was just free and closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
