/**
 * What a user sees while a KB is updated, measured from outside the server: `candor serve` runs as a child process
 * with a KB of N synthetic facts (bench/synthetic-kb.ts) and a small second KB; a separate prober process
 * (bench/index-update-prober.ts) sends GET /healthz at 100/s and asks on the small KB, and reads the server's VmRSS.
 * Then, each round, one document of the big KB changes through the CLI (`candor ingest one .jsonl`: handed to the
 * server on the embedded store, its own process on PostgreSQL) and the bench times how long after the command's end
 * an ask is answered from the new version. Last, the server is stopped and started again, timed until the big KB
 * answers. Writes bench/results/index-update.json (rows merged by store, facts and runtime); see bench/README.md.
 *
 *   npm run bench:update                                  # 100k facts, PGlite
 *   npm run bench:update -- --quick                       # 20k facts, one round: a smoke run
 *   npm run bench:update -- --facts 300000 --postgres     # PostgreSQL (postgres://127.0.0.1:5432/test)
 */
import { fork } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

import type { ProbeSamples, ProbeSettings } from './index-update-prober.js';
import { percentile, round1, runCli, startServer, summarise, wallNow, type Latency, type Server } from './index-update-server.js';
import { corpusVocabulary, generateFacts, generateQuestions } from './synthetic-kb.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Options {
  readonly facts: number;
  readonly store: 'pglite' | 'postgres';
  readonly postgresUrl: string;
  readonly rounds: number;
  readonly restarts: number;
  readonly baselineSeconds: number;
  readonly healthzPerSecond: number;
  readonly askPerSecond: number;
  /** Run the compiled CLI (`node bin/candor.js`, as the image does; `npm run build` first) instead of src/ through tsx. */
  readonly built: boolean;
  readonly out: string;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    const next = at >= 0 ? argv[at + 1] : undefined;
    return next !== undefined && !next.startsWith('--') ? next : undefined;
  };
  const count = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw.replace(/_/g, ''));
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name}: "${raw}" is not a number ≥ 0`);
    return n;
  };
  const known = [
    '--quick',
    '--facts',
    '--postgres',
    '--rounds',
    '--restarts',
    '--baseline-s',
    '--healthz-rate',
    '--ask-rate',
    '--built',
    '--out',
  ];
  const unknown = argv.filter((a) => a.startsWith('--') && !known.includes(a));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(', ')}; options: ${known.join(' ')}`);
  const quick = argv.includes('--quick');
  return {
    facts: count('--facts', quick ? 20_000 : 100_000),
    store: argv.includes('--postgres') ? 'postgres' : 'pglite',
    postgresUrl: value('--postgres') ?? 'postgres://127.0.0.1:5432/test',
    rounds: count('--rounds', quick ? 1 : 3),
    restarts: count('--restarts', quick ? 1 : 2),
    baselineSeconds: count('--baseline-s', quick ? 2 : 5),
    healthzPerSecond: count('--healthz-rate', 100),
    askPerSecond: count('--ask-rate', 20),
    built: argv.includes('--built'),
    out: value('--out') ?? join(ROOT, 'bench', 'results', 'index-update.json'),
  };
}

function progress(message: string): void {
  process.stderr.write(`[bench:update ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

// ---------------------------------------------------------------------------
// Data

const BIG = 'big';
const OTHER = 'other';
/** Made-up words, one per round: the changed document's fact is the only one holding it. */
const ROUND_WORDS = ['zorblaxian', 'quindarite', 'velmorish', 'trastovan', 'plimquor', 'grenduvik', 'oskelbrand', 'fywennic'];

async function writeJsonl(path: string, lines: Iterable<object>): Promise<void> {
  const out = createWriteStream(path);
  let buffered = '';
  for (const line of lines) {
    buffered += `${JSON.stringify(line)}\n`;
    if (buffered.length > 1 << 20) {
      if (!out.write(buffered)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffered = '';
    }
  }
  await new Promise<void>((resolve, reject) => out.end(buffered, () => resolve()).once('error', reject));
}

/** The changed document of round `r`: one fact, always the same file (round 1 adds it, later rounds change it). */
function changedDocument(r: number): { fact: object; question: string; word: string } {
  const word = ROUND_WORDS[(r - 1) % ROUND_WORDS.length] as string;
  return {
    word,
    fact: { id: 'changed-1', text: `The ${word} widget allowance is ${10 + r} units per quarter for each team.` },
    question: `What is the ${word} widget allowance?`,
  };
}

interface DataFiles {
  readonly big: string;
  readonly other: string;
  /** The one document that changes each round. */
  readonly changed: string;
  /** Questions on the small KB, which the prober asks. */
  readonly otherQuestions: readonly string[];
}

/** The big KB (N facts), the small one (the first 50 of them, as bench:gate's "other" KB) and its questions. */
async function writeData(dir: string, n: number): Promise<DataFiles> {
  const corpus = generateFacts(n, corpusVocabulary());
  const files = { big: join(dir, 'big.jsonl'), other: join(dir, 'other.jsonl'), changed: join(dir, 'changed.jsonl') };
  await writeJsonl(
    files.big,
    (function* () {
      for (let i = 0; i < n; i++) yield { id: `f${i}`, text: corpus.facts[i] };
    })(),
  );
  await writeJsonl(
    files.other,
    corpus.facts.slice(0, 50).map((text, i) => ({ id: `o${i}`, text })),
  );
  return { ...files, otherQuestions: generateQuestions(corpus, 50, 40) };
}

// ---------------------------------------------------------------------------
// Phases

interface Phase {
  readonly seconds: number;
  readonly healthz: Latency;
  readonly askOtherKb: Latency;
  /** VmRSS of the server in the phase, MB: the median (in the baseline: the steady state) and the highest sample. */
  readonly rssMedianMb: number;
  readonly rssPeakMb: number;
  /** Update only: VmHWM after a reset at the command's start (catches a peak between samples); null if the reset was refused. */
  readonly hwmMb: number | null;
  /** The prober's own timer lateness, p99 ms: a starved prober sends late, and its latencies then understate. */
  readonly proberLateP99Ms: number;
}

interface UpdateRound {
  readonly round: number;
  /** The KB version the change made. */
  readonly version: number;
  /** The CLI command, spawn to exit (tsx's start included unless --built). */
  readonly commandMs: number;
  /** The ingest's own time, from its --json summary (on the embedded store, in the server). */
  readonly ingestMs: number;
  /** From the command's end until an ask on the big KB was answered from the new version (negative: before it ended). */
  readonly servedAfterCommandMs: number;
  /** From the command's end until /healthz first reported the new version of the big KB. */
  readonly healthzVersionAfterCommandMs: number;
  /** Whether that answer's evidence held the changed document's fact. */
  readonly newFactCited: boolean;
  /** The seconds before the command. */
  readonly baseline: Phase;
  /**
   * From the ingest's start (the command's end − its own `ms` − WORK_MARGIN_MS) until the new version was served;
   * RSS from the command's start until a second after that (the old index let go).
   */
  readonly update: Phase;
  /** Update peak (the larger of the highest sample and VmHWM) ÷ baseline median. */
  readonly peakOverSteady: number;
}

interface Start {
  /** Spawn to "Candor is serving on". */
  readonly listeningMs: number;
  /** Spawn to /healthz 200 (every served KB has an index). */
  readonly healthyMs: number;
  /** Spawn to the first ask on the big KB answered 200 (not 503 kb_warming). */
  readonly bigKbAnswersMs: number;
  /** VmHWM of the new process one second after that, and its VmRSS then. */
  readonly peakRssMb: number;
  readonly rssAfterMb: number;
}

interface Restart extends Start {
  /** SIGTERM to exit. */
  readonly stopMs: number;
}

type Samples = ProbeSamples;

/** Latency of the requests sent in [from, to]; RSS sampled in [rssFrom, rssTo]. */
function phase(
  samples: Samples,
  [from, to]: readonly [number, number],
  [rssFrom, rssTo]: readonly [number, number],
  hwmKb: number | null,
): Phase {
  const within = (at: number, end: number) => at >= from && at <= end;
  const rss = samples.rss.filter(([at]) => at >= rssFrom && at <= rssTo).map(([, kb]) => kb / 1024);
  const late = samples.late.filter(([at]) => within(at, to)).map(([, ms]) => ms);
  return {
    seconds: round1((to - from) / 1000),
    healthz: summarise(samples.healthz.filter(([at]) => within(at, to))),
    askOtherKb: summarise(samples.asks.filter(([at]) => within(at, to))),
    rssMedianMb: round1(percentile(rss, 50)),
    rssPeakMb: round1(Math.max(...rss)),
    hwmMb: hwmKb === null ? null : round1(hwmKb / 1024),
    proberLateP99Ms: round1(percentile(late, 99)),
  };
}

/** Resets the server's VmHWM (echo 5 > /proc/PID/clear_refs); false when refused. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** Before the ingest's own start, for the hand-over to the server and the process's start around it. */
const WORK_MARGIN_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The prober child process, started: stop() ends it and resolves with every sample. */
async function startProber(server: Server, options: Options, questions: readonly string[]) {
  const child = fork(join(ROOT, 'bench', 'index-update-prober.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('error', () => undefined); // a send after an interrupt ended it
  cleanups.add(() => child.kill());
  const settings: ProbeSettings = {
    url: server.url,
    pid: server.pid,
    healthzPerSecond: options.healthzPerSecond,
    askPerSecond: options.askPerSecond,
    askKb: OTHER,
    questions,
    rssEveryMs: 10,
  };
  await new Promise<void>((resolve) => {
    child.once('message', () => resolve());
    child.send({ type: 'start', ...settings });
  });
  return {
    stop: () =>
      new Promise<Samples>((resolve, reject) => {
        if (!child.connected) return reject(new Error('the prober is gone'));
        child.once('message', (m) => resolve(m as Samples));
        child.once('exit', () => reject(new Error('the prober exited without its samples')));
        child.send({ type: 'stop' });
      }),
  };
}

/** Polls /healthz every 10 ms until the big KB is ready at `version` or later; then asks until an answer comes from it. */
async function waitServed(server: Server, version: number, question: string, word: string) {
  let healthzAt: number;
  for (;;) {
    const kbs = (await server.health())?.kbs ?? [];
    if ((kbs.find((k) => k.kb === BIG)?.version ?? 0) >= version) {
      healthzAt = wallNow();
      break;
    }
    await sleep(10);
  }
  for (;;) {
    const answer = await server.ask(question, BIG);
    if (answer?.status === 200 && (answer.body.kb?.version ?? 0) >= version) {
      return { healthzAt, servedAt: wallNow(), cited: JSON.stringify(answer.body.evidence ?? []).includes(word) };
    }
    await sleep(10);
  }
}

interface RoundMarks {
  readonly round: number;
  readonly version: number;
  readonly baselineFrom: number;
  readonly commandStart: number;
  readonly commandEnd: number;
  /** The ingest's own time (`ms` of its --json summary): on the embedded store it ran in the server. */
  readonly ingestMs: number;
  readonly healthzAt: number;
  readonly servedAt: number;
  readonly cited: boolean;
  readonly hwmKb: number | null;
}

/** One document changed per round, with the prober running throughout; the samples are cut into phases afterwards. */
async function updateRounds(server: Server, options: Options, files: DataFiles): Promise<UpdateRound[]> {
  const prober = await startProber(server, options, files.otherQuestions);
  const marks: RoundMarks[] = [];
  let samples: Samples;
  try {
    await sleep(1000); // connections open, first requests out of the way
    for (let round = 1; round <= options.rounds; round++) {
      const baselineFrom = wallNow();
      await sleep(options.baselineSeconds * 1000);
      const change = changedDocument(round);
      writeFileSync(files.changed, `${JSON.stringify(change.fact)}\n`);
      const reset = resetPeak(server.pid);
      const commandStart = wallNow();
      const run = await server.cli(['ingest', files.changed, '--kb', BIG, '--json']);
      const commandEnd = wallNow();
      const { kb, ms: ingestMs } = JSON.parse(run.stdout) as { kb: { version: number }; ms: number };
      const served = await waitServed(server, kb.version, change.question, change.word);
      await sleep(1000); // the old index let go, the build's garbage collected: a late peak is still counted
      const hwmKb = reset ? statusKb(server.pid, 'VmHWM') : null;
      marks.push({ round, version: kb.version, baselineFrom, commandStart, commandEnd, ingestMs, ...served, hwmKb });
      progress(
        `round ${round}: version ${kb.version} served ${Math.round(served.servedAt - commandEnd)} ms after the command's end ` +
          `(command ${Math.round(commandEnd - commandStart)} ms)`,
      );
    }
  } finally {
    samples = await prober.stop();
  }
  return marks.map((m) => {
    const baseline = phase(samples, [m.baselineFrom, m.commandStart], [m.baselineFrom, m.commandStart], null);
    // The CLI's own start (seconds under tsx) leaves the server idle: latency counts from when the ingest began.
    const workFrom = Math.max(m.commandStart, m.commandEnd - m.ingestMs - WORK_MARGIN_MS);
    const update = phase(samples, [workFrom, m.servedAt], [m.commandStart, m.servedAt + 1000], m.hwmKb);
    return {
      round: m.round,
      version: m.version,
      commandMs: Math.round(m.commandEnd - m.commandStart),
      ingestMs: Math.round(m.ingestMs),
      servedAfterCommandMs: Math.round(m.servedAt - m.commandEnd),
      healthzVersionAfterCommandMs: Math.round(m.healthzAt - m.commandEnd),
      newFactCited: m.cited,
      baseline,
      update,
      peakOverSteady: Math.round((Math.max(update.rssPeakMb, update.hwmMb ?? 0) / baseline.rssMedianMb) * 100) / 100,
    };
  });
}

/** Waits for a started server to answer on the big KB: /healthz polled every 20 ms, then an ask. */
async function timeStart(server: Server): Promise<Start> {
  let healthyAt: number | null = null;
  let answersAt: number | null = null;
  while (healthyAt === null || answersAt === null) {
    const health = await server.health();
    if (health?.status === 200) healthyAt ??= wallNow();
    if (answersAt === null && (health?.kbs.find((k) => k.kb === BIG)?.version ?? null) !== null) {
      const answer = await server.ask('What is the widget allowance?', BIG);
      if (answer?.status === 200) answersAt = wallNow();
    }
    if (healthyAt === null || answersAt === null) await sleep(20);
  }
  await sleep(1000);
  return {
    listeningMs: Math.round(server.listeningAt - server.spawnedAt),
    healthyMs: Math.round(healthyAt - server.spawnedAt),
    bigKbAnswersMs: Math.round(answersAt - server.spawnedAt),
    peakRssMb: round1(statusKb(server.pid, 'VmHWM') / 1024),
    rssAfterMb: round1(statusKb(server.pid, 'VmRSS') / 1024),
  };
}

// ---------------------------------------------------------------------------
// Stores, clean-up, results

/** What an interrupted run must still undo: the server, the prober, the scratch database, the temp folder. */
const cleanups = new Set<() => unknown>();

async function cleanUp(): Promise<void> {
  for (const step of [...cleanups].reverse()) {
    try {
      await step();
    } catch (error) {
      progress(`clean-up: ${(error as Error).message}`);
    }
  }
  cleanups.clear();
}

/** A scratch database on the PostgreSQL server (candor_bench_update_<pid>), dropped at the end: the named one is left alone. */
async function scratchDatabase(adminUrl: string): Promise<string> {
  const url = new URL(adminUrl);
  if (!url.username && !process.env.PGUSER) url.username = process.env.USER || userInfo().username;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const name = `candor_bench_update_${process.pid}`;
  await admin(`drop database if exists ${name}`);
  await admin(`create database ${name}`);
  cleanups.add(() => admin(`drop database if exists ${name} with (force)`));
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return scratch.toString();
}

interface Row {
  readonly store: 'pglite' | 'postgres';
  readonly facts: number;
  readonly runtime: 'tsx' | 'built';
  readonly date: string;
  readonly node: string;
  readonly cpus: number;
  /** The machine's 1-minute load average when the run began (other jobs share it). */
  readonly loadAverage: number;
  readonly healthzPerSecond: number;
  readonly askPerSecond: number;
  /** `candor ingest` of the big KB's .jsonl before the server started (the CLI, spawn to exit). */
  readonly ingestSeconds: number;
  readonly firstStart: Start;
  readonly rounds: readonly UpdateRound[];
  readonly restarts: readonly Restart[];
  /** Medians over the rounds (and restarts), and the issue's targets where they apply to this size. */
  readonly summary: Record<string, number | boolean | null>;
}

const median = (values: readonly number[]): number => round1(percentile(values, 50));

function summary(rounds: readonly UpdateRound[], restarts: readonly Restart[], facts: number): Row['summary'] {
  const servedMs = median(rounds.map((r) => r.servedAfterCommandMs));
  const healthzP99 = median(rounds.map((r) => r.update.healthz.p99Ms));
  const healthzMax = Math.max(...rounds.map((r) => r.update.healthz.maxMs));
  const ratio = median(rounds.map((r) => r.peakOverSteady));
  const restartMs = median(restarts.map((r) => r.bigKbAnswersMs));
  const servedTarget = facts >= 1_000_000 ? 3000 : facts >= 300_000 ? 2000 : null;
  return {
    servedAfterCommandMs: servedMs,
    baselineHealthzP99Ms: median(rounds.map((r) => r.baseline.healthz.p99Ms)),
    updateHealthzP50Ms: median(rounds.map((r) => r.update.healthz.p50Ms)),
    updateHealthzP99Ms: healthzP99,
    updateHealthzMaxMs: healthzMax,
    baselineAskP99Ms: median(rounds.map((r) => r.baseline.askOtherKb.p99Ms)),
    updateAskP99Ms: median(rounds.map((r) => r.update.askOtherKb.p99Ms)),
    updateAskMaxMs: Math.max(...rounds.map((r) => r.update.askOtherKb.maxMs)),
    steadyRssMb: median(rounds.map((r) => r.baseline.rssMedianMb)),
    updatePeakRssMb: median(rounds.map((r) => Math.max(r.update.rssPeakMb, r.update.hwmMb ?? 0))),
    peakOverSteady: ratio,
    restartAnswersMs: restartMs,
    meetsServedTarget: servedTarget === null ? null : servedMs <= servedTarget,
    meetsHealthzTarget: healthzP99 <= 20 && healthzMax <= 50,
    meetsMemoryTarget: ratio <= 1.3,
    meetsRestartTarget: facts >= 1_000_000 ? restartMs <= 5000 : null,
  };
}

function writeRow(path: string, row: Row): void {
  const earlier = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Row[]) : [];
  const same = (a: Row) => a.store === row.store && a.facts === row.facts && a.runtime === row.runtime;
  const rows = [...earlier.filter((r) => !same(r)), row].sort((a, b) => a.store.localeCompare(b.store) || a.facts - b.facts);
  writeFileSync(path, `${JSON.stringify(rows, null, 2)}\n`);
}

function printRow(row: Row): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `\n${row.store}, ${row.facts} facts (${row.runtime}), /healthz at ${row.healthzPerSecond}/s and asks on a 50-fact KB at ${row.askPerSecond}/s from another process`,
  );
  out(
    'round  served after cmd  cmd (ingest) ms  healthz p50/p99/max (baseline → update)   asks p99/max (baseline → update)   RSS steady → peak MB',
  );
  for (const r of row.rounds) {
    const h = (p: Phase) => `${p.healthz.p50Ms}/${p.healthz.p99Ms}/${p.healthz.maxMs}`;
    const a = (p: Phase) => `${p.askOtherKb.p99Ms}/${p.askOtherKb.maxMs}`;
    out(
      `${String(r.round).padEnd(5)}  ${`${r.servedAfterCommandMs} ms`.padStart(16)}  ${`${r.commandMs} (${r.ingestMs})`.padStart(15)}  ` +
        `${`${h(r.baseline)} → ${h(r.update)}`.padEnd(41)}  ${`${a(r.baseline)} → ${a(r.update)}`.padEnd(33)}  ` +
        `${r.baseline.rssMedianMb} → ${Math.max(r.update.rssPeakMb, r.update.hwmMb ?? 0)} (${r.peakOverSteady}×)`,
    );
  }
  for (const [i, r] of [row.firstStart, ...row.restarts].entries()) {
    out(
      `${i === 0 ? 'first start' : `restart ${i} (stop ${(r as Restart).stopMs} ms)`}: listening ${r.listeningMs} ms, ` +
        `/healthz 200 ${r.healthyMs} ms, big KB answers ${r.bigKbAnswersMs} ms; peak RSS ${r.peakRssMb} MB, then ${r.rssAfterMb} MB`,
    );
  }
  out(`summary: ${JSON.stringify(row.summary)}`);
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const loadAverage = loadavg()[0] as number;
  const tmp = mkdtempSync(join(tmpdir(), 'candor-bench-update-'));
  cleanups.add(() => rmSync(tmp, { recursive: true, force: true }));
  progress(`${options.facts} facts on ${options.store} (${options.built ? 'built CLI' : 'tsx'}); load average ${loadAverage.toFixed(1)}`);
  const files = await writeData(tmp, options.facts);
  const env: Record<string, string> = {
    CANDOR_DATA_DIR: join(tmp, 'data'),
    CANDOR_KB: BIG,
    // The small KB is served too (warmed at start, on /healthz), as a KB mapped to a chat channel is.
    CANDOR_CHANNELS: JSON.stringify([{ slack: 'C0BENCH', kb: OTHER }]),
    ...(options.store === 'postgres' ? { DATABASE_URL: await scratchDatabase(options.postgresUrl) } : {}),
  };
  progress('ingesting the big KB with the CLI');
  const ingest = await runCli(['ingest', files.big, '--kb', BIG, '--json'], env, options.built);
  await runCli(['ingest', files.other, '--kb', OTHER, '--json'], env, options.built);
  progress(`ingested in ${(ingest.ms / 1000).toFixed(1)} s; starting the server`);
  let server = await startServer(env, options.built);
  cleanups.add(() => server.kill());
  const firstStart = await timeStart(server);
  progress(`serving both KBs ${firstStart.healthyMs} ms after the spawn; ${options.rounds} update rounds`);
  const rounds = await updateRounds(server, options, files);
  const restarts: Restart[] = [];
  for (let i = 1; i <= options.restarts; i++) {
    const stopMs = Math.round(await server.stop());
    server = await startServer(env, options.built);
    restarts.push({ stopMs, ...(await timeStart(server)) });
    progress(`restart ${i}: the big KB answers ${restarts[restarts.length - 1]!.bigKbAnswersMs} ms after the spawn`);
  }
  await server.stop();
  const row: Row = {
    store: options.store,
    facts: options.facts,
    runtime: options.built ? 'built' : 'tsx',
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cpus: cpus().length,
    loadAverage: round1(loadAverage),
    healthzPerSecond: options.healthzPerSecond,
    askPerSecond: options.askPerSecond,
    ingestSeconds: round1(ingest.ms / 1000),
    firstStart,
    rounds,
    restarts,
    summary: summary(rounds, restarts, options.facts),
  };
  writeRow(options.out, row);
  printRow(row);
  process.stdout.write(`wrote ${options.out}\n`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    progress(`${signal}: stopping the server and the prober, dropping the scratch database, deleting temp files`);
    setTimeout(() => process.exit(130), 10_000).unref();
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    if (interrupted) return; // what the interrupt broke
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  })
  .finally(() => !interrupted && cleanUp());
