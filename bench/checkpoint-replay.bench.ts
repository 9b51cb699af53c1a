/**
 * What a SIGKILL costs the next start of an embedded store, with and without the periodic checkpoint
 * (src/store/periodic-checkpoint.ts). For each setting a child process (bench/checkpoint-writer.ts) writes
 * CANDOR_BENCH_ROWS rows of 1 KB as fast as it can, is killed with SIGKILL, and the store is opened again here: the time
 * that open takes (WAL replay included) and whether every written row is back. A clean reopen of the same
 * folder is timed after it, as the floor. Writes bench/results/checkpoint-replay.json; see bench/README.md.
 *
 *   npm run bench:checkpoint
 *   CANDOR_BENCH_ROWS=50000 CANDOR_BENCH_OUT=/tmp/checkpoint.json npm run bench:checkpoint
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';

import { openStore } from '../src/store/open-store.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = process.env.CANDOR_BENCH_OUT ?? join(ROOT, 'bench', 'results', 'checkpoint-replay.json');
const ROWS = Number(process.env.CANDOR_BENCH_ROWS ?? 400_000);

/** The settings compared: as before issue 38 (no checkpoint until shutdown), the defaults, and a short interval. */
const CASES = [
  { name: 'no periodic checkpoint (before)', checkpointMs: 0, walMb: 16_384 },
  { name: 'defaults (5 min or 128 MB)', checkpointMs: 300_000, walMb: 128 },
  { name: 'every 30 s or 32 MB', checkpointMs: 30_000, walMb: 32 },
];

interface Written {
  rows: number;
  seconds: number;
  walSinceCheckpointBytes: number;
  checkpoints: number;
}

/** Runs the writer until it reports, then SIGKILLs it. */
async function writeThenKill(dataDir: string, checkpointMs: number, walMb: number): Promise<Written> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', 'checkpoint-writer.ts'), dataDir, String(ROWS), String(checkpointMs), String(walMb)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before reporting`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return JSON.parse(line) as Written;
}

/** Opens the store (replaying what the kill left), counts the rows, closes it; the open's time in ms. */
async function reopen(dataDir: string): Promise<{ openMs: number; rows: number }> {
  const started = performance.now();
  const store = await openStore({ dataDir, checkpointMs: 0 });
  const openMs = Math.round(performance.now() - started);
  const [{ n }] = ((await store.db.execute(sql`select count(*)::int as n from bench_rows`)) as unknown as { rows: [{ n: number }] }).rows;
  await store.close();
  return { openMs, rows: n };
}

const results = [];
for (const c of CASES) {
  const dir = mkdtempSync(join(tmpdir(), 'candor-checkpoint-bench-'));
  try {
    const dataDir = join(dir, 'data');
    const written = await writeThenKill(dataDir, c.checkpointMs, c.walMb);
    const afterKill = await reopen(dataDir);
    const clean = await reopen(dataDir);
    const result = {
      ...c,
      rowsWritten: written.rows,
      writeSeconds: written.seconds,
      rowsAfterRestart: afterKill.rows,
      checkpointsWhileWriting: written.checkpoints,
      walToReplayMb: Math.round(written.walSinceCheckpointBytes / 2 ** 20),
      restartAfterKillMs: afterKill.openMs,
      cleanRestartMs: clean.openMs,
    };
    process.stderr.write(`${JSON.stringify(result)}\n`);
    results.push(result);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, rows: ROWS, rowBytes: 1024, results }, null, 2)}\n`,
);
process.stderr.write(`wrote ${RESULTS}\n`);
