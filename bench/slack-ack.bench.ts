/**
 * Slack acknowledgement benchmark: a burst of signed Events API requests, all
 * in flight at once, into Candor's Slack receiver on its HTTP server (each question
 * stored in the durable inbox before the 200; Web API on a local fake Slack), and
 * the same requests, just before, into a bare node:http server (the floor). Three
 * runs per store and burst, every one reported: request → HTTP 200 latency for
 * both, and how far Candor's p99 is above the floor's. Each run then waits for the
 * answers and checks that no event was lost or answered twice — also when each
 * event is delivered three times (Slack's retries), on PGlite and PostgreSQL.
 * Writes bench/results/slack-ack.json; see bench/README.md.
 *
 *   npm run bench:slack
 *   CANDOR_BENCH_EVENTS=500 CANDOR_BENCH_STORES=pglite npm run bench:slack
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';

import { ingestPaths } from '../src/kb/ingest/ingest.js';
import { waitFor, type FakeServer } from '../test/channels/fake-http.js';
import { SIGNING_SECRET, slackEvent, startFakeSlack, startSlackRig } from '../test/channels/slack/slack-harness.js';
import { createTestStore, type DriverName, type TestStore } from '../test/support/stores.js';
import { EXAMPLE_KB_QUESTIONS } from './example-kb-questions.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = process.env.CANDOR_BENCH_OUT ?? join(ROOT, 'bench', 'results', 'slack-ack.json');
const EVENTS = Number(process.env.CANDOR_BENCH_EVENTS ?? 200);
const DUPLICATED = Math.max(1, Math.round(EVENTS / 4));
const RUNS = Number(process.env.CANDOR_BENCH_RUNS ?? 3);
const STORES = (process.env.CANDOR_BENCH_STORES ?? 'pglite,postgres').split(',') as DriverName[];
/** The target: Candor's ack p99 at most this far above the bare server's p99, in the same run. */
const TARGET_OVER_FLOOR_MS = 30;
/** Events of the unmeasured burst that warms both servers (JIT, connection paths) before the first run. */
const WARM_UP_EVENTS = 20;
const QUESTIONS = EXAMPLE_KB_QUESTIONS.slice(0, 5);

type Rig = Awaited<ReturnType<typeof startSlackRig>>;
type Burst = 'distinct' | 'retries';

interface Latency {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

interface RunResult extends Latency {
  readonly store: DriverName;
  readonly burst: Burst;
  readonly run: number;
  readonly events: number;
  readonly requests: number;
  /** The same requests against the bare server, just before the burst and again after its answers (timings pooled). */
  readonly floorP50Ms: number;
  readonly floorP99Ms: number;
  /** The two floor bursts apart: how much the floor itself moved within the run (the noise under the difference). */
  readonly floorBeforeP99Ms: number;
  readonly floorAfterP99Ms: number;
  readonly overFloorP50Ms: number;
  /** `p99Ms - floorP99Ms`: what the target is about. */
  readonly overFloorP99Ms: number;
  readonly meetsTarget: boolean;
  readonly non200: number;
  readonly answered: number;
  readonly answeredTwice: number;
  readonly lost: number;
  readonly interactionRows: number;
  readonly answersDoneMs: number;
  /** The machine's 1-minute load average when the run started: other jobs on it move every figure. */
  readonly loadAverage: number;
}

interface SignedRequest {
  readonly body: string;
  readonly retry: number;
}

/** The bare server: reads the body and answers 200, nothing else. What the client and the machine cost. */
async function startFloor(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, close: () => server.close() };
}

/** Where a store's rig keeps its data: a fresh PGlite folder (durable, fsync per commit, as `candor serve` runs it), or a fresh PostgreSQL database. */
async function storeEnv(driver: DriverName): Promise<{ env: Record<string, string>; dispose: () => Promise<void> } | null> {
  if (driver === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'candor-bench-slack-'));
    return { env: { CANDOR_DATA_DIR: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base: TestStore | null = await createTestStore(driver).catch((error: unknown) => {
    process.stderr.write(`skipping ${driver}: ${(error as Error).message}\n`);
    return null;
  });
  if (!base) return null;
  await base.store.close(); // the rig opens its own store on the fresh database
  return { env: { DATABASE_URL: base.databaseUrl ?? '' }, dispose: () => base.dispose() };
}

async function main(): Promise<void> {
  const results: RunResult[] = [];
  const floor = await startFloor();
  try {
    for (const driver of STORES) {
      const where = await storeEnv(driver);
      if (!where) continue;
      const slack = await startFakeSlack();
      const rig = await startSlackRig({ slack, telemetry: false, env: { LOG_LEVEL: 'error', ...where.env } });
      try {
        await ingestPaths(rig.app.store.db, [join(ROOT, 'examples', 'kb')], { kb: 'default' });
        await rig.app.ask({ question: 'warm up', channel: 'bench' }, { record: false }); // builds the index once
        const warmUp = events(`${driver}-warm`, 'CBENCHW', WARM_UP_EVENTS, 1);
        await sendFromWorker(floor.url, warmUp.requests);
        await deliver(rig, slack, warmUp);
        for (let run = 1; run <= RUNS; run++) {
          for (const burst of ['distinct', 'retries'] as const) {
            const result = await measure(driver, burst, run, rig, slack, floor.url);
            results.push(result);
            process.stderr.write(
              `${driver} ${burst} run ${run}: ack p99 ${result.p99Ms} ms, floor p99 ${result.floorP99Ms} ms ` +
                `(${result.floorBeforeP99Ms} before, ${result.floorAfterP99Ms} after), ` +
                `over the floor ${result.overFloorP99Ms} ms (load ${result.loadAverage})\n`,
            );
          }
        }
      } finally {
        await rig.close();
        await slack.close();
        await where.dispose();
      }
    }
  } finally {
    floor.close();
  }
  const report = {
    machine: { cpus: cpus().length, node: process.version },
    targetOverFloorP99Ms: TARGET_OVER_FLOOR_MS,
    runs: results,
  };
  writeFileSync(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const missed = results.filter((r) => !r.meetsTarget || r.lost > 0 || r.answeredTwice > 0);
  if (missed.length > 0) process.stderr.write(`target missed in ${missed.length} of ${results.length} runs (see ${RESULTS})\n`);
}

interface EventBurst {
  readonly specs: ReturnType<typeof slackEvent>[];
  readonly channel: string;
  readonly requests: SignedRequest[];
}

/** `count` distinct app_mention events in `channel`, each delivered `deliveries` times (retries 1, 2, … after the first). */
function events(tag: string, channel: string, count: number, deliveries: number): EventBurst {
  const specs = Array.from({ length: count }, (_, i) =>
    slackEvent({ text: `<@UCANDOR> ${QUESTIONS[i % QUESTIONS.length]}`, eventId: `Ev${tag}-${i}`, channel }),
  );
  const requests = specs.flatMap((spec) => Array.from({ length: deliveries }, (_, retry) => ({ body: spec.body, retry })));
  return { specs, channel, requests };
}

/** One run: the requests into Candor, and the same ones into the bare server before and after; the answers counted. */
async function measure(store: DriverName, burst: Burst, run: number, rig: Rig, slack: FakeServer, floorUrl: string): Promise<RunResult> {
  const tag = `${store}-${burst}-${run}-${Date.now().toString(36)}`;
  const channel = `CBENCH${burst === 'distinct' ? 'A' : 'B'}${store === 'pglite' ? 'P' : 'S'}${run}`;
  const input = burst === 'distinct' ? events(tag, channel, EVENTS, 1) : events(tag, channel, DUPLICATED, 3);
  const loadAverage = round(loadavg()[0] ?? 0);
  // The floor brackets Candor's burst: just before it, and again once its answers are done (not beside them: the
  // answers would slow the bare server). Timings pooled, so load that drifts during the run moves both sides.
  const floorBefore = await sendFromWorker(floorUrl, input.requests);
  const delivered = await deliver(rig, slack, input);
  const floorAfter = await sendFromWorker(floorUrl, input.requests);
  const floor = latency([...floorBefore, ...floorAfter].map((t) => t.ms));
  const rows = (await rig.app.store.db.execute(
    sql`select count(*)::int as n from interactions where channel = 'slack' and event_id like ${`Ev${tag}-%`}`,
  )) as unknown as { rows: { n: number }[] };
  const ack = latency(delivered.timings.map((t) => t.ms));
  const overFloorP99Ms = round(ack.p99Ms - floor.p99Ms);
  return {
    store,
    burst,
    run,
    events: input.specs.length,
    requests: input.requests.length,
    ...ack,
    floorP50Ms: floor.p50Ms,
    floorP99Ms: floor.p99Ms,
    floorBeforeP99Ms: latency(floorBefore.map((t) => t.ms)).p99Ms,
    floorAfterP99Ms: latency(floorAfter.map((t) => t.ms)).p99Ms,
    overFloorP50Ms: round(ack.p50Ms - floor.p50Ms),
    overFloorP99Ms,
    meetsTarget: overFloorP99Ms <= TARGET_OVER_FLOOR_MS,
    non200: delivered.timings.filter((t) => t.status !== 200).length,
    answered: delivered.answered,
    answeredTwice: delivered.answeredTwice,
    lost: input.specs.length - delivered.answered,
    interactionRows: rows.rows[0]?.n ?? 0,
    answersDoneMs: delivered.answersDoneMs,
    loadAverage,
  };
}

/** Sends a burst into Candor and waits until every distinct event is answered (or two minutes pass). */
async function deliver(
  rig: Rig,
  slack: FakeServer,
  input: EventBurst,
): Promise<{ timings: Timing[]; answered: number; answeredTwice: number; answersDoneMs: number }> {
  const before = slack.calls.length;
  const started = performance.now();
  const timings = await sendFromWorker(rig.eventsUrl, input.requests);
  // Every distinct event must be answered; wait for the posts (not timed against the target).
  const postsFor = () => slack.calls.slice(before).filter((c) => c.path === '/api/chat.postMessage' && c.body.channel === input.channel);
  await waitFor(() => postsFor().length >= input.specs.length, 120_000, `${input.specs.length} answers`).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 500)); // a late duplicate would show up here
  const answersDoneMs = round(performance.now() - started);
  const perThread = new Map<string, number>();
  for (const post of postsFor()) {
    const thread = String(post.body.thread_ts);
    perThread.set(thread, (perThread.get(thread) ?? 0) + 1);
  }
  return {
    timings,
    answered: input.specs.filter((s) => perThread.has(s.ts)).length,
    answeredTwice: [...perThread.values()].filter((n) => n > 1).length,
    answersDoneMs,
  };
}

/** Nearest-rank percentiles. */
function latency(ms: readonly number[]): Latency {
  const sorted = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
  return { p50Ms: pct(50), p95Ms: pct(95), p99Ms: pct(99), maxMs: round(sorted[sorted.length - 1] ?? 0) };
}

interface Timing {
  readonly ms: number;
  readonly status: number;
}

/** Fires every request at once from a worker thread, each signed as Slack signs; resolves with per-request timings. */
function sendFromWorker(url: string, requests: readonly SignedRequest[]): Promise<Timing[]> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { createHmac } = require('node:crypto');
    const http = require('node:http');
    const { url, secret, requests } = workerData;
    // node:http rather than fetch: lighter per request, so the client adds less to what is measured.
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const send = ({ body, retry }) => new Promise((resolve, reject) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = 'v0=' + createHmac('sha256', secret).update('v0:' + timestamp + ':' + body).digest('hex');
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
      if (retry > 0) Object.assign(headers, { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': 'http_timeout' });
      const t0 = performance.now();
      const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode }));
      });
      req.on('error', reject);
      req.end(body);
    });
    Promise.all(requests.map(send)).then((timings) => parentPort.postMessage(timings));
  `;
  return new Promise((resolve, reject) => {
    // The load comes from another thread, so the client's own work does not sit on the server's event loop.
    const worker = new Worker(source, { eval: true, workerData: { url, secret: SIGNING_SECRET, requests } });
    worker.once('message', (timings: Timing[]) => {
      resolve(timings);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

await main();
