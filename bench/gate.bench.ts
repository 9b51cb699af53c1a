/**
 * Gate latency benchmark: retrieve + gate per ask, at 1k / 10k / 100k
 * facts, on PGlite (on disk) and on PostgreSQL, beside a bare in-process BM25
 * top-k over the same facts and questions in the same run, plus ingestion
 * throughput. Writes bench/results/gate.json; see bench/README.md.
 *
 *   npm run bench
 *   CANDOR_BENCH_DATABASE_URL=postgres://user@host:5432/db npm run bench
 *   CANDOR_BENCH_SIZES=1000,10000 CANDOR_BENCH_STORES=pglite CANDOR_BENCH_OUT=/tmp/quick.json npm run bench
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';

import { createAsk } from '../src/ask/ask-service.js';
import { assessQuestion } from '../src/ask/assess-question.js';
import { GATE_MODEL } from '../src/ask/gate-model.js';
import { createInteractionRecorder } from '../src/ask/record-interaction.js';
import { apiRoutes } from '../src/channels/http/api-routes.js';
import { startHttpServer } from '../src/channels/http/http-server.js';
import { settingsSchema, toConfig } from '../src/config.js';
import { formatCaveat, formatExtractiveAnswer, formatRefusal, nearbyTopics } from '../src/core/answer/format-answer.js';
import { ingestPaths } from '../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../src/kb/knowledge-index-cache.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { knowledgeBases } from '../src/store/schema.js';
import { corpusVocabulary, generateFacts, generateQuestions } from './synthetic-kb.js';

// ---------------------------------------------------------------------------
// Settings

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = process.env.CANDOR_BENCH_OUT ?? join(ROOT, 'bench', 'results', 'gate.json');
const KB = 'bench';
const QUESTIONS = 400;
const WARMUP_ASKS = 100;
/** Passes over the question set; samples = QUESTIONS × ROUNDS. */
const ROUNDS = 2;
/** The one target (issue 21): retrieve + gate at a million facts, on PostgreSQL. */
const TARGET = { facts: 1_000_000, p50Ms: 5, p99Ms: 15 };
/** While the large KB's index is rebuilt, /healthz and asks on another KB must stay within this p99. */
const REBUILD_TARGET_P99_MS = 50;

const SIZES = parseList(process.env.CANDOR_BENCH_SIZES, ['1000', '10000', '100000', '1000000']).map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 10) throw new Error(`CANDOR_BENCH_SIZES: "${s}" is not a whole number of facts ≥ 10`);
  return n;
});
const STORES = parseList(process.env.CANDOR_BENCH_STORES, ['pglite', 'postgres']).map((s) => {
  if (s !== 'pglite' && s !== 'postgres') throw new Error(`CANDOR_BENCH_STORES: "${s}" is not pglite or postgres`);
  return s;
});
/** Sizes above 100k facts run on these stores only (PGlite at 1M takes tens of minutes to ingest). */
const LARGE_STORES = parseList(process.env.CANDOR_BENCH_LARGE_STORES, ['postgres']);
const ADMIN_URL = withDefaultUser(process.env.CANDOR_BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test');

/**
 * libpq (psql) connects as the OS user when a URL names none; node-postgres
 * only looks at PGUSER / USER, which a service or container may not set.
 */
function withDefaultUser(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username || process.env.PGUSER || process.env.USER) return raw;
    url.username = userInfo().username;
    return url.toString();
  } catch {
    return raw;
  }
}

/** The production defaults (src/config.ts), so the bench gates exactly as `candor start` would. */
const CONFIG = toConfig(settingsSchema.parse({}));

// ---------------------------------------------------------------------------
// Output rows

interface Row {
  store: 'pglite' | 'postgres';
  facts: number;
  /** Retrieve + gate per ask, as ask() does it (version check, then assessQuestion: retrieve, gate, cite). */
  p50Ms: number;
  p99Ms: number;
  /** Bare in-process BM25 top-k over the same facts and questions, same run. */
  baselineP50Ms: number;
  ingestFactsPerSec: number;
  // extras
  ratioToBaseline: number;
  baselineP99Ms: number;
  /** First get() after an ingest: version check + reading the facts page by page + building the index. */
  indexBuildMs: number;
  /** A rebuild of this KB's index (a new version announced) while HTTP requests go on: see duringRebuild(). */
  rebuild: RebuildLatency;
  ingestMs: number;
  samples: number;
  answeredShare: number;
  versionCheckP50Ms: number;
  versionCheckP99Ms: number;
  retrieveP50Ms: number;
  retrieveP99Ms: number;
  gateP50Ms: number;
  gateP99Ms: number;
  /** Retrieve + cite + gate without the version check: the in-process part, against the bare BM25. */
  inProcessP50Ms: number;
  inProcessRatioToBaseline: number;
  meetsTarget: boolean | null;
}

// ---------------------------------------------------------------------------
// Baseline: a bare BM25 top-k, no stemming, no gate, no store

const BARE_STOP = new Set(
  'a an and are as at be by can do does for from how i in is it of on or the this to what when who with you your'.split(' '),
);

function bareTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 && !BARE_STOP.has(t));
}

class BareBm25 {
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly lengths: Float64Array;
  private readonly avgdl: number;

  constructor(texts: readonly string[]) {
    this.lengths = new Float64Array(texts.length);
    let total = 0;
    texts.forEach((text, doc) => {
      const tokens = bareTokens(text);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        let p = this.postings.get(term);
        if (!p) this.postings.set(term, (p = { docs: [], tfs: [] }));
        p.docs.push(doc);
        p.tfs.push(n);
      }
      this.lengths[doc] = tokens.length;
      total += tokens.length;
    });
    this.avgdl = total / Math.max(1, texts.length) || 1;
  }

  search(question: string, k: number, k1 = 1.2, b = 0.75): number[] {
    const n = this.lengths.length;
    const scores = new Float64Array(n);
    const touched: number[] = [];
    for (const term of new Set(bareTokens(question))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.docs.length + 0.5) / (p.docs.length + 0.5));
      for (let i = 0; i < p.docs.length; i++) {
        const doc = p.docs[i] as number;
        const tf = p.tfs[i] as number;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] =
          (scores[doc] as number) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * (this.lengths[doc] as number)) / this.avgdl));
      }
    }
    const best: number[] = [];
    for (const doc of touched) {
      const s = scores[doc] as number;
      if (best.length === k && s <= (scores[best[k - 1] as number] as number)) continue;
      let i = best.length === k ? k - 1 : best.length;
      while (i > 0 && (scores[best[i - 1] as number] as number) < s) {
        best[i] = best[i - 1] as number;
        i -= 1;
      }
      best[i] = doc;
    }
    return best;
  }
}

// ---------------------------------------------------------------------------
// Measurement

interface Split {
  total: number[];
  versionCheck: number[];
  retrieve: number[];
  gate: number[];
  inProcess: number[];
  answered: number;
}

/**
 * One ask as ask() runs it, minus telemetry and recording: version check, then
 * the production assessQuestion (retrieve, rules + answerability score, citations), then the
 * answer's composition (or the refusal's text), as the extractive ask writes them.
 */
async function askOnce(cache: KnowledgeIndexCache, question: string, split: Split | null): Promise<void> {
  const t0 = performance.now();
  const index = await cache.get(KB);
  const t1 = performance.now();
  let t2 = t1;
  const assessed = assessQuestion(index, question, {
    config: CONFIG,
    model: GATE_MODEL,
    retrieveHook: (retrieve) => {
      const hits = retrieve();
      t2 = performance.now();
      return hits;
    },
  });
  const gate = assessed.gate;
  if (gate.pass) {
    formatExtractiveAnswer(assessed.cited(), assessed.input.question);
    if (gate.confidence === 'medium') formatCaveat(gate.doubts);
  } else formatRefusal(gate.verdicts[0]!, nearbyTopics(assessed.ranked, assessed.input.question));
  const t3 = performance.now();
  if (!split) return;
  split.total.push(t3 - t0);
  split.versionCheck.push(t1 - t0);
  split.retrieve.push(t2 - t1);
  split.gate.push(t3 - t2);
  split.inProcess.push(t3 - t1);
  if (gate.pass) split.answered += 1;
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function measureBaseline(texts: readonly string[], questions: readonly string[]): { p50: number; p99: number } {
  const bare = new BareBm25(texts);
  let sink = 0;
  for (const q of questions.slice(0, WARMUP_ASKS)) sink += bare.search(q, CONFIG.ask.topK).length;
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of questions) {
      const t0 = performance.now();
      sink += bare.search(q, CONFIG.ask.topK).length;
      times.push(performance.now() - t0);
    }
  }
  if (sink < 0) console.error(sink); // keep the work observable
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function benchStore(
  kind: 'pglite' | 'postgres',
  store: Store,
  n: number,
  factsFile: string,
  texts: readonly string[],
  questions: readonly string[],
): Promise<Row> {
  progress(`${kind} ${n}: ingesting`);
  const i0 = performance.now();
  const summary = await ingestPaths(store.db, [factsFile], { kb: KB, onProgress: (m) => progress(`${kind} ${n}: ${m}`) });
  const ingestMs = performance.now() - i0;
  if (summary.facts !== n || summary.skipped.length > 0) {
    throw new Error(`ingest stored ${summary.facts} of ${n} facts; skipped: ${JSON.stringify(summary.skipped.slice(0, 3))}`);
  }

  // As `candor serve` runs it: versions announced by the store, not read per ask.
  const cache = new KnowledgeIndexCache(store.db);
  cache.serveWhileBuilding({ maxWaitMs: 3_600_000, trustVersionsMs: CONFIG.kb.indexRefreshMs });
  const unwatch = await store.watchKbChanges((kb) => cache.changed(kb));
  const b0 = performance.now();
  const index = await cache.get(KB);
  const indexBuildMs = performance.now() - b0;
  if (index.size !== n) throw new Error(`index holds ${index.size} facts, expected ${n}`);
  progress(`${kind} ${n}: ingested in ${(ingestMs / 1000).toFixed(1)} s, index built in ${indexBuildMs.toFixed(0)} ms; asking`);

  for (const q of questions.slice(0, WARMUP_ASKS)) await askOnce(cache, q, null);
  const split: Split = { total: [], versionCheck: [], retrieve: [], gate: [], inProcess: [], answered: 0 };
  for (let round = 0; round < ROUNDS; round++) for (const q of questions) await askOnce(cache, q, split);

  progress(`${kind} ${n}: requests during a rebuild`);
  const rebuild = await duringRebuild(store, cache, texts);
  await unwatch();
  progress(`${kind} ${n}: baseline`);
  const baseline = measureBaseline(texts, questions);
  const p50 = percentile(split.total, 50);
  const p99 = percentile(split.total, 99);
  return {
    store: kind,
    facts: n,
    p50Ms: r3(p50),
    p99Ms: r3(p99),
    baselineP50Ms: r3(baseline.p50),
    ingestFactsPerSec: r3(n / (ingestMs / 1000)),
    ratioToBaseline: r3(p50 / baseline.p50),
    baselineP99Ms: r3(baseline.p99),
    indexBuildMs: r3(indexBuildMs),
    rebuild,
    ingestMs: r3(ingestMs),
    samples: split.total.length,
    answeredShare: r3(split.answered / split.total.length),
    versionCheckP50Ms: r3(percentile(split.versionCheck, 50)),
    versionCheckP99Ms: r3(percentile(split.versionCheck, 99)),
    retrieveP50Ms: r3(percentile(split.retrieve, 50)),
    retrieveP99Ms: r3(percentile(split.retrieve, 99)),
    gateP50Ms: r3(percentile(split.gate, 50)),
    gateP99Ms: r3(percentile(split.gate, 99)),
    inProcessP50Ms: r3(percentile(split.inProcess, 50)),
    inProcessRatioToBaseline: r3(percentile(split.inProcess, 50) / baseline.p50),
    meetsTarget: n === TARGET.facts ? p50 <= TARGET.p50Ms && p99 <= TARGET.p99Ms : null,
  };
}

interface RebuildLatency {
  readonly buildMs: number;
  /** Requests made while the build ran (one /healthz and one ask on another KB every 20 ms). */
  readonly samples: number;
  readonly healthzP99Ms: number;
  readonly healthzMaxMs: number;
  readonly otherKbAskP99Ms: number;
  readonly otherKbAskMaxMs: number;
  /** Null: no probe landed before the new version was served. */
  readonly meetsTarget: boolean | null;
}

/**
 * A new version of the bench KB is announced (the version number moves on, the facts stay: the same rebuild
 * an ingest causes) and its index is rebuilt off the request path, while an HTTP server on the same process
 * answers /healthz and asks on a second, small KB: their latency is what a probe or a user elsewhere sees.
 */
async function duringRebuild(store: Store, cache: KnowledgeIndexCache, texts: readonly string[]): Promise<RebuildLatency> {
  const otherFile = join(mkdtempSync(join(tmpdir(), 'candor-bench-other-')), 'other.jsonl');
  writeFileSync(
    otherFile,
    texts
      .slice(0, 50)
      .map((text, i) => JSON.stringify({ id: `o${i}`, text }))
      .join('\n') + '\n',
  );
  await ingestPaths(store.db, [otherFile], { kb: 'other' });
  rmSync(dirname(otherFile), { recursive: true, force: true });
  await cache.get('other');
  const ask = createAsk({ config: CONFIG, indexes: cache, recorder: createInteractionRecorder(store.db, 'bench') });
  const server = await startHttpServer(
    [
      apiRoutes({
        ask,
        maxBodyBytes: 65_536,
        health: [{ name: 'database', check: () => store.ping() }],
        indexes: () => cache.readiness([KB, 'other']),
      }),
    ],
    { host: '127.0.0.1', port: 0, log: () => undefined },
  );
  const healthz: number[] = [];
  const asks: number[] = [];
  try {
    const probe = async (): Promise<[number, number]> => {
      const h0 = performance.now();
      const health = await fetch(`${server.url}/healthz`);
      await health.arrayBuffer();
      const h1 = performance.now();
      const answer = await fetch(`${server.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'What is the rule?', kb: 'other' }),
      });
      await answer.arrayBuffer();
      if (health.status !== 200 || answer.status !== 200)
        throw new Error(`during the rebuild: /healthz ${health.status}, ask ${answer.status}`);
      return [h1 - h0, performance.now() - h1];
    };
    for (let i = 0; i < 20; i++) await probe(); // a warm server: what a probe meets in production
    const building = () => cache.readiness([KB]).some((r) => r.building !== null);
    const before = (await cache.get(KB)).version;
    const t0 = performance.now();
    await store.db
      .update(knowledgeBases)
      .set({ currentVersion: sql`${knowledgeBases.currentVersion} + 1` })
      .where(eq(knowledgeBases.name, KB));
    void cache.get(KB); // the next ask starts the build (serve's watcher would have started it already)
    while (building() || (await cache.get(KB)).version === before) {
      const [h, q] = await probe();
      healthz.push(h);
      asks.push(q);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const buildMs = performance.now() - t0;
    const result = {
      buildMs: r3(buildMs),
      samples: healthz.length,
      healthzP99Ms: r3(percentile(healthz, 99)),
      healthzMaxMs: r3(Math.max(...healthz)),
      otherKbAskP99Ms: r3(percentile(asks, 99)),
      otherKbAskMaxMs: r3(Math.max(...asks)),
    };
    // No probe landed: the new version (a segment of what changed, here nothing) was served at once.
    if (result.samples === 0) return { ...result, meetsTarget: null };
    return { ...result, meetsTarget: result.healthzP99Ms <= REBUILD_TARGET_P99_MS && result.otherKbAskP99Ms <= REBUILD_TARGET_P99_MS };
  } finally {
    await server.stop(100);
  }
}

// ---------------------------------------------------------------------------
// Stores

/** A throw-away database on the PostgreSQL server, so the bench never touches the one named in the URL. */
async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `candor_bench_${process.pid}`;
  const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name}`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => c.query(`DROP DATABASE IF EXISTS ${name}`));
      }),
  };
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

// ---------------------------------------------------------------------------
// Main

type Step = () => Promise<void> | void;

/**
 * What an interrupted run must still undo: scratch databases and temp files.
 * (Closing stores is skipped then: a pool waits for its busy clients.)
 */
const discards = new Set<Step>();

async function runSteps(steps: readonly Step[]): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      progress(`cleanup: ${(error as Error).message}`);
    }
  }
}

function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function parseList(value: string | undefined, fallback: string[]): string[] {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : fallback;
}

async function main(): Promise<void> {
  const started = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), 'candor-bench-'));
  const removeTmp: Step = () => rmSync(tmp, { recursive: true, force: true });
  discards.add(removeTmp);
  try {
    await run(tmp, started);
  } finally {
    discards.delete(removeTmp);
    removeTmp();
  }
}

async function run(tmp: string, started: number): Promise<void> {
  const maxN = Math.max(...SIZES);
  progress(`generating ${maxN} facts from the example vocabulary`);
  const words = corpusVocabulary();
  const corpus = generateFacts(maxN, words);
  progress(`vocabulary ${words.length} words; node ${process.version}, ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`);

  const inputs = SIZES.map((n) => {
    const file = join(tmp, `facts-${n}.jsonl`);
    const texts = corpus.facts.slice(0, n);
    writeFileSync(file, texts.map((text, i) => JSON.stringify({ id: `f${i}`, text })).join('\n') + '\n');
    return { n, file, texts, questions: generateQuestions(corpus, n, QUESTIONS) };
  });
  if (process.env.CANDOR_BENCH_SAMPLE) {
    const last = inputs[inputs.length - 1];
    for (const text of corpus.facts.slice(0, 5)) progress(`fact: ${text}`);
    for (const q of last?.questions.slice(0, 15) ?? []) progress(`question: ${q}`);
  }

  const rows: Row[] = [];
  const skipped: string[] = [];
  stores: for (const kind of STORES) {
    for (const { n, file, texts, questions } of inputs) {
      if (n > 100_000 && !LARGE_STORES.includes(kind)) {
        progress(`${kind} ${n}: skipped (CANDOR_BENCH_LARGE_STORES=${LARGE_STORES.join(',')})`);
        continue;
      }
      // A fresh store per size: close it, then drop / delete it, even on failure.
      const discard: Step[] = [];
      const discardAll: Step = () => runSteps(discard);
      discards.add(discardAll);
      let store: Store | undefined;
      try {
        if (kind === 'pglite') {
          const dataDir = join(tmp, `pglite-${n}`);
          discard.push(() => rmSync(dataDir, { recursive: true, force: true }));
          store = await openStore({ dataDir });
        } else {
          let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
          try {
            scratch = await createScratchDatabase(ADMIN_URL);
          } catch (error) {
            const why = `PostgreSQL at ${redact(ADMIN_URL)} is unreachable (${(error as Error).message}); skipped the postgres rows. Set CANDOR_BENCH_DATABASE_URL to a server where you may CREATE DATABASE.`;
            progress(why);
            skipped.push(why);
            continue stores;
          }
          discard.push(scratch.drop);
          store = await openStore({ databaseUrl: scratch.url, dataDir: join(tmp, 'unused') });
        }
        const row = await benchStore(kind, store, n, file, texts, questions);
        rows.push(row);
        progress(`${kind} ${n}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, bare BM25 p50 ${row.baselineP50Ms} ms`);
      } finally {
        discards.delete(discardAll);
        await store?.close().catch((error: unknown) => progress(`closing ${kind}: ${(error as Error).message}`));
        await discardAll();
      }
    }
  }

  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(rows, null, 2)}\n`);
  printTable(rows);
  for (const line of skipped) console.log(`\nNOTE: ${line}`);
  console.log(`\nwrote ${RESULTS} (${rows.length} rows) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

function printTable(rows: readonly Row[]): void {
  const head = [
    'store',
    'facts',
    'p50 ms',
    'p99 ms',
    'bare p50',
    'ratio',
    'version p50',
    'retrieve p50',
    'gate p50',
    'in-proc p50',
    'in-proc ratio',
    'answered',
    'index build ms',
    'rebuild: healthz p99',
    'other-KB ask p99',
    'ingest facts/s',
  ];
  const body = rows.map((r) => [
    r.store,
    String(r.facts),
    r.p50Ms.toFixed(3),
    r.p99Ms.toFixed(3),
    r.baselineP50Ms.toFixed(3),
    `${r.ratioToBaseline.toFixed(1)}×`,
    r.versionCheckP50Ms.toFixed(3),
    r.retrieveP50Ms.toFixed(3),
    r.gateP50Ms.toFixed(3),
    r.inProcessP50Ms.toFixed(3),
    `${r.inProcessRatioToBaseline.toFixed(1)}×`,
    `${(r.answeredShare * 100).toFixed(0)}%`,
    r.indexBuildMs.toFixed(0),
    r.rebuild.healthzP99Ms.toFixed(1),
    r.rebuild.otherKbAskP99Ms.toFixed(1),
    r.ingestFactsPerSec.toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  console.log(
    `\nretrieve + gate per ask (${CONFIG.ask.topK} retrieved, ${QUESTIONS} questions × ${ROUNDS}), node ${process.version}, ${cpus().length} CPUs`,
  );
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
  for (const r of rows) {
    if (r.rebuild.samples === 0) {
      console.log(`${r.store} at ${r.facts} facts: the new version was served before a probe landed (see npm run bench:update)`);
      continue;
    }
    console.log(
      `${r.store} at ${r.facts} facts, during a ${(r.rebuild.buildMs / 1000).toFixed(1)} s rebuild: /healthz p99 ${r.rebuild.healthzP99Ms} ms, ` +
        `asks on another KB p99 ${r.rebuild.otherKbAskP99Ms} ms (${r.rebuild.samples} each; target ≤ ${REBUILD_TARGET_P99_MS} ms ${r.rebuild.meetsTarget ? 'MET' : 'MISSED'})`,
    );
  }
  for (const r of rows.filter((row) => row.meetsTarget !== null)) {
    console.log(
      `${r.store} at ${r.facts} facts: target p50 ≤ ${TARGET.p50Ms} ms and p99 ≤ ${TARGET.p99Ms} ms ${r.meetsTarget ? 'MET' : 'MISSED'} (p50 ${r.p50Ms}, p99 ${r.p99Ms})`,
    );
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: dropping the scratch database and deleting temp files`);
    // Dropping the database ends connections a transaction still holds; pg then
    // emits 'error' on that checked-out client, which nothing listens to.
    process.on('uncaughtException', () => undefined);
    process.on('unhandledRejection', () => undefined);
    setTimeout(() => process.exit(130), 10_000).unref();
    void runSteps([...discards].reverse()).finally(() => process.exit(130));
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
