/**
 * HTTP throughput of `POST /api/ask` (extractive: no model configured) against a minimal server that does one BM25
 * search and one INSERT per request, on PGlite and on PostgreSQL, same facts, same questions, same run. A closed
 * loop at a fixed concurrency drives each server from a worker thread. Writes bench/results/http-throughput.json;
 * see bench/README.md.
 *
 *   npm run bench:http
 *   CANDOR_BENCH_STORES=pglite CANDOR_BENCH_HTTP_SECONDS=5 CANDOR_BENCH_OUT=/tmp/http.json npm run bench:http
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import pg from 'pg';

import { buildCandor, type Candor } from '../src/app/main.js';
import { httpRoutes } from '../src/app/serve.js';
import { startHttpServer, type RunningServer } from '../src/channels/http/http-server.js';
import { loadConfig } from '../src/config.js';
import { mappedKbs } from '../src/config/channels-setting.js';
import { Bm25Index } from '../src/core/retrieval/bm25-index.js';
import { ingestPaths } from '../src/kb/ingest/ingest.js';
import { openDurablePglite } from '../src/store/durable-pglite.js';
import { corpusVocabulary, generateFacts, generateQuestions, type Corpus } from './synthetic-kb.js';

// ---------------------------------------------------------------------------
// Settings

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = process.env.CANDOR_BENCH_OUT ?? join(ROOT, 'bench', 'results', 'http-throughput.json');
const KB = 'bench';
const QUESTIONS = 1_000;
const FACTS = wholeNumber('CANDOR_BENCH_HTTP_FACTS', 10_000);
const CONCURRENCY = wholeNumber('CANDOR_BENCH_HTTP_CONCURRENCY', 8);
const SECONDS = wholeNumber('CANDOR_BENCH_HTTP_SECONDS', 10);
const WARMUP_SECONDS = wholeNumber('CANDOR_BENCH_HTTP_WARMUP_SECONDS', 3);
const RUNS = wholeNumber('CANDOR_BENCH_HTTP_RUNS', 3);
const STORES = (process.env.CANDOR_BENCH_STORES ?? 'pglite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => {
    if (s !== 'pglite' && s !== 'postgres') throw new Error(`CANDOR_BENCH_STORES: "${s}" is not pglite or postgres`);
    return s;
  });
const ADMIN_URL = withDefaultUser(process.env.CANDOR_BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test');
/** The issue's bar: Candor's req/s as a share of the minimal server's, per store. */
const TARGET_RATIO = { postgres: 0.9, pglite: 0.7 } as const;

function wholeNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: "${raw}" is not a whole number ≥ 1`);
  return n;
}

/** node-postgres needs PGUSER or USER where libpq would take the OS user. */
function withDefaultUser(raw: string): string {
  const url = new URL(raw);
  if (!url.username && !process.env.PGUSER && !process.env.USER) url.username = userInfo().username;
  return url.toString();
}

// ---------------------------------------------------------------------------
// Output

interface Load {
  readonly requests: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non200: number;
  /** CPU time of the server's thread (Node's main thread: HTTP, Candor or the minimal handler, and PGlite) per request. */
  readonly serverCpuMsPerReq: number | null;
  /** CPU time of the PostgreSQL backends serving this database per request; null for PGlite. */
  readonly dbCpuMsPerReq: number | null;
}

interface Row {
  readonly store: 'pglite' | 'postgres';
  readonly facts: number;
  readonly concurrency: number;
  readonly seconds: number;
  /** Medians over the runs. */
  readonly candorReqPerSec: number;
  readonly minimalReqPerSec: number;
  readonly ratio: number;
  readonly targetRatio: number;
  readonly meetsTarget: boolean;
  /** Medians of server thread + database CPU per request; their ratio does not depend on what else the machine runs. */
  readonly candorCpuMsPerReq: number | null;
  readonly minimalCpuMsPerReq: number | null;
  readonly cpuRatio: number | null;
  readonly answeredShare: number;
  readonly runs: readonly { readonly candor: Load; readonly minimal: Load; readonly ratio: number }[];
}

// ---------------------------------------------------------------------------
// The two servers

/** Candor's HTTP server with the routes `candor serve` gives it (httpRoutes: API, metrics and console). */
async function startCandor(app: Candor): Promise<RunningServer> {
  const served = mappedKbs(app.config.channels, app.config.kb.defaultName);
  // As serve's keepIndexesWarm: versions announced by the store, not read per ask.
  await app.store.watchKbChanges((kb) => app.indexes.changed(kb));
  app.indexes.serveWhileBuilding({ maxWaitMs: app.config.kb.indexWaitMs, trustVersionsMs: app.config.kb.indexRefreshMs });
  const routes = httpRoutes(app, served);
  const running = await startHttpServer(routes, { host: '127.0.0.1', port: 0, log: app.log });
  await app.indexes.warm(served);
  await app.indexes.built(served, 120_000);
  return running;
}

/** Stores one row per request; the minimal server's only write. */
const MINIMAL_TABLE = `create table if not exists minimal_asks (
  id bigserial primary key, question text not null, top_key integer, created_at timestamptz not null default now())`;
const MINIMAL_INSERT = 'insert into minimal_asks (question, top_key) values ($1, $2) returning id';

/** node:http, JSON in and out, one BM25 search, one INSERT … RETURNING: what any such endpoint must do. */
async function startMinimal(
  texts: readonly string[],
  insert: (question: string, topKey: number | null) => Promise<number>,
): Promise<{ url: string; server: Server }> {
  const index = new Bm25Index(texts.map((text, key) => ({ key, text })));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const { question } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { question: string };
          const hits = index.search(question, 20);
          const id = await insert(question, hits[0]?.key ?? null);
          const body = JSON.stringify({ id, hits: hits.map((h) => ({ key: h.key, score: h.normalised })) });
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        } catch (error) {
          res.writeHead(500).end(String(error));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// ---------------------------------------------------------------------------
// Load: a closed loop from a worker thread (its own event loop; the same two cores)

interface LoadResult {
  readonly latencies: number[];
  readonly non200: number;
  readonly answered: number;
  readonly ms: number;
}

function driveLoad(url: string, questions: readonly string[], warmupMs: number, measureMs: number): Promise<LoadResult> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const http = require('node:http');
    const { url, questions, concurrency, warmupMs, measureMs } = workerData;
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const target = new URL('/api/ask', url);
    const post = (question) => new Promise((resolve, reject) => {
      const body = JSON.stringify({ question });
      const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });
    const latencies = [];
    let non200 = 0, answered = 0, next = 0, measuring = false, stop = false;
    const loop = async () => {
      while (!stop) {
        const question = questions[next++ % questions.length];
        const t0 = performance.now();
        const { status, text } = await post(question);
        const ms = performance.now() - t0;
        // Counted: the requests that complete inside the measured window.
        if (!measuring || stop) continue;
        latencies.push(ms);
        if (status !== 200) non200 += 1;
        else if (text.includes('"decision":"answer"')) answered += 1;
      }
    };
    let began = performance.now();
    setTimeout(() => { measuring = true; began = performance.now(); }, warmupMs);
    setTimeout(() => { stop = true; }, warmupMs + measureMs);
    Promise.all(Array.from({ length: concurrency }, loop)).then(() => {
      agent.destroy();
      parentPort.postMessage({ latencies, non200, answered, ms: Math.min(performance.now(), began + measureMs) - began });
    }, (error) => parentPort.postMessage({ error: String(error) }));
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { url, questions, concurrency: CONCURRENCY, warmupMs, measureMs } });
    worker.once('message', (result: LoadResult & { error?: string }) => {
      void worker.terminate();
      if (result.error) reject(new Error(result.error));
      else resolve(result);
    });
    worker.once('error', reject);
  });
}

function summarise(result: LoadResult, cpu: { server: number | null; db: number | null }): Load {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  const perRequest = (ms: number | null) => (ms === null ? null : r3(ms / Math.max(1, sorted.length)));
  return {
    requests: sorted.length,
    reqPerSec: r1(sorted.length / (result.ms / 1000)),
    p50Ms: r3(at(50)),
    p99Ms: r3(at(99)),
    non200: result.non200,
    serverCpuMsPerReq: perRequest(cpu.server),
    dbCpuMsPerReq: perRequest(cpu.db),
  };
}

/**
 * CPU time (user + system, ms) of one thread or process, from Linux's /proc: unlike req/s it does not move when
 * other work on the machine takes the cores. Null elsewhere.
 */
function cpuMs(statPath: string): number | null {
  try {
    const stat = readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux build that matters. */
const CLOCK_TICKS = 100;
const mainThreadCpuMs = () => cpuMs(`/proc/${process.pid}/task/${process.pid}/stat`);

/** CPU (ms) of each backend process serving `db`, by pid. */
async function backendCpuMs(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
  const byPid = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = cpuMs(`/proc/${pid}/stat`);
    if (ms !== null) byPid.set(pid, ms);
  }
  return byPid;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// ---------------------------------------------------------------------------
// One store

interface Opened {
  readonly app: Candor;
  readonly insert: (question: string, topKey: number | null) => Promise<number>;
  /** PostgreSQL: CPU (ms) of the database's backends by pid, when the server runs on this machine. */
  readonly backends?: () => Promise<Map<number, number>>;
  readonly close: () => Promise<void>;
}

async function openPglite(tmp: string): Promise<Opened> {
  const app = await buildCandor(loadConfig({ CANDOR_DATA_DIR: join(tmp, 'candor'), CANDOR_KB: KB }), { purpose: 'bench' });
  // Its own embedded database, opened as Candor opens one (fsync on): PGlite serves one process per folder.
  const client: PGlite = await openDurablePglite(join(tmp, 'minimal'));
  await client.exec(MINIMAL_TABLE);
  return {
    app,
    insert: async (question, topKey) => Number((await client.query<{ id: number }>(MINIMAL_INSERT, [question, topKey])).rows[0]?.id),
    close: async () => {
      await client.close();
      await app.close();
    },
  };
}

async function openPostgres(url: string): Promise<Opened> {
  const app = await buildCandor(loadConfig({ DATABASE_URL: url, CANDOR_KB: KB }), { purpose: 'bench' });
  // The same pool size as Candor's default (10), to the same database.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Dropping the database at the end can reach a connection still closing: not worth a crash.
  pool.on('error', () => undefined);
  await pool.query(MINIMAL_TABLE);
  const watcher = new pg.Client({ connectionString: url });
  watcher.on('error', () => undefined);
  await watcher.connect();
  return {
    app,
    insert: async (question, topKey) => Number((await pool.query<{ id: string }>(MINIMAL_INSERT, [question, topKey])).rows[0]?.id),
    backends: () => backendCpuMs(watcher),
    close: async () => {
      await watcher.end();
      await pool.end();
      await app.close();
    },
  };
}

async function benchStore(kind: 'pglite' | 'postgres', opened: Opened, factsFile: string, corpus: Corpus): Promise<Row> {
  const texts = corpus.facts;
  const { app } = opened;
  progress(`${kind}: ingesting ${texts.length} facts`);
  const summary = await ingestPaths(app.store.db, [factsFile], { kb: KB });
  if (summary.facts !== texts.length) throw new Error(`ingest stored ${summary.facts} of ${texts.length} facts`);
  const candor = await startCandor(app);
  const minimal = await startMinimal(texts, opened.insert);
  const questions = generateQuestions(corpus, texts.length, QUESTIONS);
  const runs: Row['runs'][number][] = [];
  let answered = 0;
  let asked = 0;
  try {
    for (let run = 1; run <= RUNS; run++) {
      // Alternate which goes first, so a drift of the machine falls on both.
      const order = run % 2 === 1 ? (['candor', 'minimal'] as const) : (['minimal', 'candor'] as const);
      const results: Partial<Record<'candor' | 'minimal', Load>> = {};
      for (const which of order) {
        const measured = measureCpu(opened, WARMUP_SECONDS * 1000);
        const raw = await driveLoad(which === 'candor' ? candor.url : minimal.url, questions, WARMUP_SECONDS * 1000, SECONDS * 1000);
        results[which] = summarise(raw, await measured.end());
        if (which === 'candor') {
          answered += raw.answered;
          asked += raw.latencies.length;
        }
      }
      const c = results.candor as Load;
      const m = results.minimal as Load;
      runs.push({ candor: c, minimal: m, ratio: r3(c.reqPerSec / m.reqPerSec) });
      const cpu = (l: Load) => `${l.serverCpuMsPerReq ?? '?'}${l.dbCpuMsPerReq === null ? '' : ` + db ${l.dbCpuMsPerReq}`} ms CPU/req`;
      progress(
        `${kind} run ${run}: candor ${c.reqPerSec} req/s (p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms, ${cpu(c)}${c.non200 ? `, ${c.non200} non-200` : ''}); ` +
          `minimal ${m.reqPerSec} req/s (p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ${cpu(m)}); ratio ${(c.reqPerSec / m.reqPerSec).toFixed(2)}`,
      );
    }
  } finally {
    await candor.stop(1_000);
    await new Promise<void>((resolve) => minimal.server.close(() => resolve()));
  }
  const ratio = median(runs.map((r) => r.ratio));
  const cpuPerReq = (l: Load) => (l.serverCpuMsPerReq === null ? null : l.serverCpuMsPerReq + (l.dbCpuMsPerReq ?? 0));
  const candorCpu = runs.map((r) => cpuPerReq(r.candor));
  const minimalCpu = runs.map((r) => cpuPerReq(r.minimal));
  const known = (xs: (number | null)[]) => (xs.every((x) => x !== null) ? r3(median(xs as number[])) : null);
  const candorCpuMsPerReq = known(candorCpu);
  const minimalCpuMsPerReq = known(minimalCpu);
  return {
    store: kind,
    facts: texts.length,
    concurrency: CONCURRENCY,
    seconds: SECONDS,
    candorReqPerSec: median(runs.map((r) => r.candor.reqPerSec)),
    minimalReqPerSec: median(runs.map((r) => r.minimal.reqPerSec)),
    ratio,
    targetRatio: TARGET_RATIO[kind],
    meetsTarget: ratio >= TARGET_RATIO[kind],
    candorCpuMsPerReq,
    minimalCpuMsPerReq,
    cpuRatio: candorCpuMsPerReq === null || minimalCpuMsPerReq === null ? null : r3(minimalCpuMsPerReq / candorCpuMsPerReq),
    answeredShare: r3(answered / Math.max(1, asked)),
    runs,
  };
}

/** Starts counting CPU once the warm-up is over; `end()` gives the server thread's and the database's since then. */
function measureCpu(opened: Opened, afterMs: number): { end: () => Promise<{ server: number | null; db: number | null }> } {
  const start = new Promise<{ server: number | null; db: Map<number, number> | null }>((resolve) => {
    setTimeout(() => {
      const server = mainThreadCpuMs();
      void (opened.backends?.() ?? Promise.resolve(null)).then((db) => resolve({ server, db }));
    }, afterMs);
  });
  return {
    end: async () => {
      const server = mainThreadCpuMs();
      const db = (await opened.backends?.()) ?? null;
      const before = await start;
      let dbMs: number | null = null;
      if (db && before.db) {
        dbMs = 0;
        for (const [pid, ms] of db) dbMs += ms - (before.db.get(pid) ?? 0);
      }
      return { server: server === null || before.server === null ? null : server - before.server, db: dbMs };
    },
  };
}

/** buildCandor starts the OpenTelemetry SDK, whose shutdown leaves its globals registered: let the next store register its own. */
function releaseTelemetryGlobals(): void {
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
}

// ---------------------------------------------------------------------------
// Scratch PostgreSQL database (as in gate.bench.ts)

async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `candor_bench_http_${process.pid}`;
  const admin = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name}`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

// ---------------------------------------------------------------------------
// Main

function progress(message: string): void {
  process.stderr.write(`[bench:http ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

const cleanups: (() => Promise<void> | void)[] = [];

async function cleanUp(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      progress(`cleanup: ${(error as Error).message}`);
    }
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), 'candor-bench-http-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const corpus = generateFacts(FACTS, corpusVocabulary());
  const texts = corpus.facts;
  const factsFile = join(tmp, 'facts.jsonl');
  writeFileSync(factsFile, texts.map((text, i) => `${JSON.stringify({ id: `f${i}`, text })}\n`).join(''));
  progress(
    `node ${process.version}, ${cpus().length} CPUs; ${FACTS} facts, concurrency ${CONCURRENCY}, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s × ${RUNS} runs`,
  );

  const rows: Row[] = [];
  for (const kind of STORES) {
    let opened: Opened;
    if (kind === 'pglite') {
      opened = await openPglite(join(tmp, 'pglite'));
    } else {
      let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
      try {
        scratch = await createScratchDatabase(ADMIN_URL);
      } catch (error) {
        progress(`PostgreSQL unreachable (${(error as Error).message}); skipped. Set CANDOR_BENCH_DATABASE_URL.`);
        continue;
      }
      cleanups.push(scratch.drop);
      opened = await openPostgres(scratch.url);
    }
    try {
      rows.push(await benchStore(kind, opened, factsFile, corpus));
    } finally {
      await opened.close().catch((error: unknown) => progress(`closing ${kind}: ${(error as Error).message}`));
      releaseTelemetryGlobals();
    }
  }
  await cleanUp();

  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`\nPOST /api/ask vs a minimal server (BM25 + INSERT), ${FACTS} facts, concurrency ${CONCURRENCY}, median of ${RUNS} runs`);
  console.log(
    'store     candor req/s  p50 ms  p99 ms  minimal req/s  p50 ms  p99 ms  ratio  target        CPU ms/req candor  minimal  ratio',
  );
  for (const r of rows) {
    const c = r.runs.find((x) => x.candor.reqPerSec === r.candorReqPerSec)?.candor;
    const m = r.runs.find((x) => x.minimal.reqPerSec === r.minimalReqPerSec)?.minimal;
    console.log(
      `${r.store.padEnd(8)}  ${String(r.candorReqPerSec).padStart(12)}  ${String(c?.p50Ms).padStart(6)}  ${String(c?.p99Ms).padStart(6)}  ` +
        `${String(r.minimalReqPerSec).padStart(13)}  ${String(m?.p50Ms).padStart(6)}  ${String(m?.p99Ms).padStart(6)}  ` +
        `${r.ratio.toFixed(2).padStart(5)}  ≥ ${r.targetRatio} ${(r.meetsTarget ? 'MET' : 'MISSED').padEnd(6)}  ` +
        `${String(r.candorCpuMsPerReq).padStart(17)}  ${String(r.minimalCpuMsPerReq).padStart(7)}  ${String(r.cpuRatio).padStart(5)}`,
    );
  }
  console.log(`\nwrote ${RESULTS} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: dropping the scratch database and deleting temp files`);
    setTimeout(() => process.exit(130), 10_000).unref();
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await cleanUp();
    process.exitCode = 1;
  })
  .finally(() => {
    // Pool timers and keep-alive sockets of closed servers must not hold the run open.
    setTimeout(() => process.exit(), 1_000).unref();
  });
