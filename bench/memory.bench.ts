/**
 * Memory per process, for sizing containers: the built CLI (`node bin/candor.js`, as the image runs it)
 * as `serve` on PostgreSQL and on the embedded PGlite store, with the example KB (examples/kb) ingested,
 * idle and after a load of asks; and the one-shot `migrate` and `ingest` steps. Resident set size is read
 * from /proc/<pid>/status (VmRSS now, VmHWM the peak). Writes bench/results/memory.json.
 *
 * Then the same for a replica serving a large synthetic KB (CANDOR_BENCH_LARGE_FACTS, default 100,000 facts;
 * target: under 300 MB RSS after warm-up and load, so the 512 MiB limit in deploy/ holds with room).
 *
 *   npm run build && npm run bench:memory
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempFiles } from '../test/support/compose.js';
import { createTestStore } from '../test/support/stores.js';
import { EXAMPLE_KB_QUESTIONS } from './example-kb-questions.js';
import { corpusVocabulary, generateFacts, generateQuestions } from './synthetic-kb.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Facts of the large KB: the replica that must stay under LARGE_TARGET_MB after warm-up (512 MiB limit in deploy/). */
const LARGE_FACTS = Number(process.env.CANDOR_BENCH_LARGE_FACTS ?? 100_000);
const LARGE_TARGET_MB = 300;
const BIN = join(ROOT, 'bin', 'candor.js');
const ASKS = Number(process.env.CANDOR_BENCH_ASKS ?? 2000);
const CONCURRENCY = 8;
const QUESTIONS = EXAMPLE_KB_QUESTIONS;

interface Memory {
  readonly rssMb: number;
  readonly peakMb: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, peakMb: Math.round(kb('VmHWM') / 102.4) / 10 };
}

/** Runs a one-shot command to its end, sampling its peak every 20 ms (the largest VmHWM seen: an exiting process reads 0). */
async function oneShot(args: string[], env: Record<string, string>): Promise<{ peakMb: number }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let peak = { peakMb: 0 };
  const timer = setInterval(() => {
    try {
      peak = { peakMb: Math.max(peak.peakMb, memoryOf(child.pid!).peakMb) };
    } catch {
      // exited between samples
    }
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`candor ${args.join(' ')} exited ${code}`);
  return peak;
}

async function serving(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  for (let i = 0; i < 600; i++) {
    const match = /Candor is serving on (http:\/\/\S+)/.exec(stderr);
    if (match) {
      // Ready once every served KB's index is built (/healthz says 200); a large one takes a while.
      for (let j = 0; j < 3000; j++) {
        const health = await fetch(`${match[1]!}/healthz`).catch(() => null);
        if (health?.status === 200) return { child, url: match[1]! };
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('serve never became ready (/healthz)');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`serve did not start:\n${stderr}`);
}

async function load(url: string, asks: number, questions: readonly string[] = QUESTIONS): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < asks) {
        const question = questions[next++ % questions.length];
        const res = await fetch(`${url}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question }),
        });
        if (res.status !== 200) throw new Error(`ask answered ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
}

async function measureServe(env: Record<string, string>, questions: readonly string[] = QUESTIONS) {
  const { child, url } = await serving(env);
  await new Promise((r) => setTimeout(r, 1000));
  const started = memoryOf(child.pid!);
  await load(url, 1, questions); // the KB's in-memory index is built by now (serve builds it at start)
  const firstAsk = memoryOf(child.pid!);
  await load(url, ASKS, questions);
  const afterLoad = memoryOf(child.pid!);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { started, firstAsk, afterLoad };
}

/** The synthetic KB of the gate bench (bench/synthetic-kb.ts) at LARGE_FACTS facts, as a .jsonl, and questions over it. */
function largeKb(path: string): string[] {
  const corpus = generateFacts(LARGE_FACTS, corpusVocabulary());
  writeFileSync(path, corpus.facts.map((text, i) => JSON.stringify({ id: `f${i}`, text })).join('\n') + '\n');
  return generateQuestions(corpus, LARGE_FACTS, 400);
}

const files = tempFiles({}, 'candor-memory-');
const pg = await createTestStore('postgres');
await pg.store.close();
/** A replica serving LARGE_FACTS synthetic facts (ingested as one .jsonl), on each store. */
async function measureLarge() {
  const pgLarge = await createTestStore('postgres');
  await pgLarge.store.close();
  try {
    const factsFile = files.path('large.jsonl');
    const questions = largeKb(factsFile);
    const onPostgres = { DATABASE_URL: pgLarge.databaseUrl!, CANDOR_DATA_DIR: files.path('unused') };
    const onPglite = { CANDOR_DATA_DIR: files.path('pglite-large') };
    const run = async (env: Record<string, string>) => ({
      migrate: await oneShot(['migrate'], env),
      ingest: await oneShot(['ingest', factsFile], env),
      serve: await measureServe(env, questions),
    });
    return { facts: LARGE_FACTS, targetRssMb: LARGE_TARGET_MB, postgres: await run(onPostgres), pglite: await run(onPglite) };
  } finally {
    await pgLarge.dispose();
  }
}

try {
  const onPostgres = { DATABASE_URL: pg.databaseUrl!, CANDOR_DATA_DIR: files.path('unused') };
  const onPglite = { CANDOR_DATA_DIR: files.path('pglite') };
  const kb = join(ROOT, 'examples', 'kb');
  const results = {
    node: process.version,
    asks: ASKS,
    concurrency: CONCURRENCY,
    kb: 'examples/kb (120 documents, 1,726 facts)',
    postgres: {
      migrate: await oneShot(['migrate'], onPostgres),
      ingest: await oneShot(['ingest', kb], onPostgres),
      serve: await measureServe(onPostgres),
    },
    pglite: {
      migrate: await oneShot(['migrate'], onPglite),
      ingest: await oneShot(['ingest', kb], onPglite),
      serve: await measureServe(onPglite),
    },
    large: await measureLarge(),
  };
  for (const store of ['postgres', 'pglite'] as const) {
    const serve = results.large[store].serve;
    console.error(
      `${store}, ${LARGE_FACTS} facts: ${serve.afterLoad.rssMb} MB RSS after ${ASKS} asks (target < ${LARGE_TARGET_MB} MB: ${serve.afterLoad.rssMb < LARGE_TARGET_MB ? 'MET' : 'MISSED'})`,
    );
  }
  const out = join(ROOT, 'bench', 'results', 'memory.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
} finally {
  await pg.dispose();
  files.cleanup();
}
