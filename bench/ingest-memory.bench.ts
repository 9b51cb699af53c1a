/**
 * Memory and time of `candor ingest` on one large .jsonl: a synthetic file of N handbook-like facts (about
 * 275 bytes a line) ingested by the CLI (`node --import tsx src/cli.ts`, as `npm start` runs it) in a child
 * process, on a scratch PostgreSQL database (created on CANDOR_TEST_DATABASE_URL, default
 * postgres://127.0.0.1:5432/test, and dropped afterwards) and on an embedded PGlite folder. The child's peak
 * resident set size is its largest VmHWM in /proc/<pid>/status, sampled every 20 ms; the PostgreSQL server's
 * own memory is not in it. `migratePeakRssMb` is the same CLI's `migrate` on the same store: the floor.
 * Merges its rows into bench/results/ingest-memory.json (one per store and size).
 *
 *   npm run bench:ingest -- [facts…] [postgres|pglite…]   (default: 1000000, both stores)
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from '../src/core/agreement/seeded-random.js';
import { tempFiles } from '../test/support/compose.js';
import { createTestStore } from '../test/support/stores.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'bench', 'results', 'ingest-memory.json');
const args = process.argv.slice(2);
const SIZES = args.map(Number).filter((n) => Number.isInteger(n) && n > 0);
const STORES = args.filter((a) => a === 'postgres' || a === 'pglite');

type StoreName = 'postgres' | 'pglite';

interface Row {
  readonly store: StoreName;
  readonly facts: number;
  readonly fileBytes: number;
  /** The child's wall time, start to exit (opening the store, reading the file twice, writing, committing). */
  readonly seconds: number;
  readonly peakRssMb: number;
  /** What the ingest itself reported (`ms` of its --json summary). */
  readonly ingestSeconds: number;
  readonly storedFacts: number;
  readonly migratePeakRssMb: number;
  readonly node: string;
  readonly date: string;
}

const TOPICS = ['annual leave', 'sick leave', 'parking permits', 'laptops', 'expense claims', 'the canteen', 'visitor badges', 'travel'];
const WHO = ['Full-time staff', 'Part-time staff', 'Contractors', 'Interns', 'Team leads', 'New joiners', 'Department heads'];
const RULES = [
  'must be approved by a department head at least five working days before',
  'are reimbursed within 30 days of a complete claim being submitted through the finance portal, with receipts attached,',
  'may be carried forward into the next calendar year, up to a limit that HR publishes each January,',
  'are renewed every July at the security office on level 2, and a lost one is replaced for a fee of $15',
  'are returned to the IT service desk on the last working day of employment, with their chargers and cases,',
];
const WHEN = [
  'on weekdays',
  'in each calendar year',
  'before any ticket is booked',
  'during the probation period',
  'after the annual review',
];

/** Writes N facts, one JSON object a line, and returns the file's size; about 275 bytes a line, seeded. */
async function writeFacts(path: string, n: number): Promise<number> {
  const random = mulberry32(21);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const out = createWriteStream(path);
  let buffered = '';
  for (let i = 1; i <= n; i++) {
    const topic = pick(TOPICS);
    const line: Record<string, string> = {
      id: `HB-${String(i).padStart(7, '0')}`,
      text: `${pick(WHO)} and ${topic} (rule ${i % 9973}): requests ${pick(RULES)} ${pick(WHEN)} (see section ${1 + (i % 40)}).`,
    };
    if (i % 4 !== 0) line.heading = `Handbook › ${topic[0]!.toUpperCase()}${topic.slice(1)}`;
    if (i % 3 !== 0) line.source = `handbook/${topic.replace(/ /g, '-')}.md#${i}`;
    buffered += `${JSON.stringify(line)}\n`;
    if (buffered.length > 1 << 20) {
      if (!out.write(buffered)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffered = '';
    }
  }
  await new Promise<void>((resolve, reject) => out.end(buffered, () => resolve()).once('error', reject));
  return statSync(path).size;
}

/** Runs the CLI to its end, sampling its peak resident set size every 20 ms (an exiting process reads 0). */
async function runCli(cliArgs: string[], env: Record<string, string>): Promise<{ stdout: string; seconds: number; peakRssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...cliArgs], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let peakKb = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0));
    } catch {
      // exited between samples
    }
  };
  const timer = setInterval(sample, 20);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`candor ${cliArgs.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return { stdout, seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(peakKb / 102.4) / 10 };
}

async function measure(store: StoreName, facts: number, file: string, fileBytes: number, scratch: string): Promise<Row> {
  let env: Record<string, string>;
  let dispose = async () => {};
  if (store === 'postgres') {
    const pg = await createTestStore('postgres');
    await pg.store.close();
    env = { DATABASE_URL: pg.databaseUrl!, CANDOR_DATA_DIR: join(scratch, 'unused') };
    dispose = () => pg.dispose();
  } else {
    env = { CANDOR_DATA_DIR: join(scratch, `pglite-${facts}`) };
  }
  try {
    const migrate = await runCli(['migrate'], env);
    const run = await runCli(['ingest', file, '--kb', 'bench', '--json'], env);
    const summary = JSON.parse(run.stdout) as { facts: number; ms: number };
    if (summary.facts !== facts) throw new Error(`stored ${summary.facts} facts of ${facts}`);
    const row: Row = {
      store,
      facts,
      fileBytes,
      seconds: Math.round(run.seconds * 10) / 10,
      peakRssMb: run.peakRssMb,
      ingestSeconds: Math.round(summary.ms / 100) / 10,
      storedFacts: summary.facts,
      migratePeakRssMb: migrate.peakRssMb,
      node: process.version,
      date: new Date().toISOString().slice(0, 10),
    };
    console.log(JSON.stringify(row));
    return row;
  } finally {
    await dispose();
  }
}

const scratch = tempFiles({}, 'candor-ingest-bench-');
try {
  const rows: Row[] = [];
  for (const facts of SIZES.length > 0 ? SIZES : [1_000_000]) {
    const file = join(scratch.dir, `facts-${facts}.jsonl`);
    const fileBytes = await writeFacts(file, facts);
    console.log(`wrote ${facts} facts, ${fileBytes} bytes (${Math.round(fileBytes / facts)} a line)`);
    for (const store of STORES.length > 0 ? STORES : (['postgres', 'pglite'] as const)) {
      rows.push(await measure(store, facts, file, fileBytes, scratch.dir));
    }
  }
  const earlier = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as Row[]) : [];
  const kept = earlier.filter((old) => !rows.some((row) => row.store === old.store && row.facts === old.facts));
  const merged = [...kept, ...rows].sort((a, b) => a.store.localeCompare(b.store) || a.facts - b.facts);
  writeFileSync(OUT, `${JSON.stringify(merged, null, 2)}\n`);
} finally {
  scratch.cleanup();
}
