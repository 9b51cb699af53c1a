/**
 * The time and memory of syncing a web source of N pages (default 1,000) from a local site into the embedded
 * store, then of a sync where nothing changed (every page answers 304), then of one where one page changed.
 * Memory is the process's peak RSS during each sync, sampled every 20 ms, against its RSS before it.
 * Writes bench/results/source-sync.json. Run: npm run bench:sources [-- --pages N] [-- --postgres URL]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { webConnectorFor } from '../src/app/source-sync.js';
import { DEFAULT_INGEST_LIMITS } from '../src/config/ingest-limits.js';
import { addSource } from '../src/kb/sources/source-records.js';
import { syncSourcesNow } from '../src/kb/sources/source-runner.js';
import { openStore } from '../src/store/open-store.js';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const PAGES = Number(option('--pages') ?? 1000);
const POSTGRES = option('--postgres');
const OUT = new URL('./results/source-sync.json', import.meta.url);

const words = 'leave travel expenses parking security training payroll benefits equipment conduct'.split(' ');
let revision = 1;
const pageOf = (i: number) => {
  const topic = words[i % words.length];
  const lines = Array.from(
    { length: 6 },
    (_, j) => `<p>Rule ${i}.${j}: staff ${topic} requests of type ${j} are approved within ${(i + j) % 30} days.</p>`,
  );
  return `<html><head><title>${topic} ${i}</title></head><body><h1>${topic} policy ${i}</h1>${lines.join('')}${i === 0 ? `<p>Revision ${revision}.</p>` : ''}</body></html>`;
};

const server = createServer((req, res) => {
  const path = req.url ?? '/';
  if (path === '/robots.txt') return void res.writeHead(404).end();
  if (path === '/sitemap.xml') {
    const urls = Array.from({ length: PAGES }, (_, i) => `<url><loc>http://127.0.0.1:${port}/p/${i}.html</loc></url>`).join('');
    return void res
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
  }
  const match = /^\/p\/(\d+)\.html$/.exec(path);
  if (!match) return void res.writeHead(404).end();
  const i = Number(match[1]);
  const etag = `"${i}-${i === 0 ? revision : 1}"`;
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(pageOf(i));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const dataDir = mkdtempSync(join(tmpdir(), 'candor-bench-sources-'));
const store = await openStore(POSTGRES ? { databaseUrl: POSTGRES, dataDir } : { dataDir });
const deps = { store, log: () => undefined, limits: DEFAULT_INGEST_LIMITS, paceMs: 0, timeoutMs: 30_000, webConnector: webConnectorFor };
const kb = `bench-sources-${Date.now()}`;
const source = await addSource(
  store.db,
  { kb, source: `http://127.0.0.1:${port}/sitemap.xml`, kind: 'web', everySeconds: 3600, include: null, maxPages: PAGES },
  new Date(),
);

async function measure(label: string) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const [result] = await syncSourcesNow(deps, { id: source!.id });
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const row = {
    run: label,
    ms: Math.round(ms),
    rssBeforeMb: Math.round(before / 2 ** 20),
    rssPeakMb: Math.round(peak / 2 ** 20),
    outcome: result?.outcome,
    error: result?.error,
    documents: result?.documents,
    version: result?.version,
  };
  process.stderr.write(`${label}: ${row.ms} ms, RSS ${row.rssBeforeMb} → peak ${row.rssPeakMb} MB, ${JSON.stringify(result?.documents)}\n`);
  return row;
}

const runs = [await measure(`first sync of ${PAGES} pages`), await measure('nothing changed (all 304)')];
revision += 1;
runs.push(await measure('one page changed'));
await store.close();
server.close();
rmSync(dataDir, { recursive: true, force: true });
const report = {
  bench: 'source-sync',
  store: POSTGRES ? 'postgres' : 'pglite',
  pages: PAGES,
  node: process.version,
  at: new Date().toISOString(),
  runs,
};
writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report)}\n`);
