/**
 * Slack acknowledgement benchmark: a burst of signed Events API requests, all
 * in flight at once, into Candor's Slack receiver on its HTTP server (each question
 * stored in the durable inbox before the 200; Web API on
 * a local fake Slack). Measures request → HTTP 200 latency, then waits for the
 * answers and checks that no event was lost or answered twice — also when each
 * event is delivered three times (Slack's retries), on PGlite and PostgreSQL.
 * Writes bench/results/slack-ack.json; see bench/README.md.
 *
 *   npm run bench:slack
 *   CANDOR_BENCH_EVENTS=500 CANDOR_BENCH_STORES=pglite npm run bench:slack
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';

import { ingestPaths } from '../src/kb/ingest/ingest.js';
import { waitFor, type FakeServer } from '../test/channels/fake-http.js';
import { SIGNING_SECRET, slackEvent, startFakeSlack, startSlackRig } from '../test/channels/slack/slack-harness.js';
import { createTestStore, type DriverName } from '../test/support/stores.js';
import { EXAMPLE_KB_QUESTIONS } from './example-kb-questions.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = process.env.CANDOR_BENCH_OUT ?? join(ROOT, 'bench', 'results', 'slack-ack.json');
const EVENTS = Number(process.env.CANDOR_BENCH_EVENTS ?? 200);
const DUPLICATED = Math.max(1, Math.round(EVENTS / 4));
const STORES = (process.env.CANDOR_BENCH_STORES ?? 'pglite,postgres').split(',') as DriverName[];
const TARGET_P99_MS = 50;
const QUESTIONS = EXAMPLE_KB_QUESTIONS.slice(0, 5);

interface BurstResult {
  readonly store: DriverName;
  readonly burst: 'distinct' | 'retries';
  readonly events: number;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly non200: number;
  readonly answered: number;
  readonly answeredTwice: number;
  readonly lost: number;
  readonly interactionRows: number;
  readonly answersDoneMs: number;
  readonly targetP99Ms: number;
  /** p99 of the same burst against a bare HTTP server (median of 3), measured in the same run. */
  readonly floorP99Ms?: number;
}

/**
 * The same burst against a bare node:http server that only reads the body and
 * answers 200: what the client and the machine cost before Candor does anything.
 */
async function floor(requests: number): Promise<number> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  const body = slackEvent({ text: 'floor' }).body;
  const p99s: number[] = [];
  for (let i = 0; i < 3; i++) {
    const timings = (
      await sendFromWorker(
        url,
        Array.from({ length: requests }, () => ({ body, retry: 0 })),
      )
    )
      .map((t) => t.ms)
      .sort((a, b) => a - b);
    p99s.push(timings[Math.ceil(0.99 * timings.length) - 1] ?? 0);
  }
  server.close();
  return round(p99s.sort((a, b) => a - b)[1] ?? 0);
}

async function main(): Promise<void> {
  const results: BurstResult[] = [];
  const floorP99Ms = await floor(EVENTS);
  for (const driver of STORES) {
    const base = await createTestStore(driver).catch((error: unknown) => {
      process.stderr.write(`skipping ${driver}: ${(error as Error).message}\n`);
      return null;
    });
    if (!base) continue;
    // The rig opens its own store; for PostgreSQL it shares the fresh database created above.
    await base.store.close();
    const slack = await startFakeSlack();
    const rig = await startSlackRig({
      slack,
      telemetry: false,
      env: { LOG_LEVEL: 'error', ...(base.databaseUrl ? { DATABASE_URL: base.databaseUrl } : {}) },
    });
    try {
      await ingestPaths(rig.app.store.db, [join(ROOT, 'examples', 'kb')], { kb: 'default' });
      await rig.app.ask({ question: 'warm up', channel: 'bench' }, { record: false }); // builds the index once
      results.push({ ...(await burst(driver, 'distinct', rig, slack, EVENTS, 1)), floorP99Ms });
      results.push({ ...(await burst(driver, 'retries', rig, slack, DUPLICATED, 3)), floorP99Ms: await floor(DUPLICATED * 3) });
    } finally {
      await rig.close();
      await slack.close();
      await base.dispose();
    }
  }
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ machine: { cpus: cpus().length }, results }, null, 2)}\n`);
  const missed = results.filter((r) => r.p99Ms > r.targetP99Ms || r.lost > 0 || r.answeredTwice > 0);
  if (missed.length > 0) process.stderr.write(`target missed in ${missed.length} runs (see ${RESULTS})\n`);
}

async function burst(
  store: DriverName,
  kind: BurstResult['burst'],
  rig: Awaited<ReturnType<typeof startSlackRig>>,
  slack: FakeServer,
  events: number,
  deliveries: number,
): Promise<BurstResult> {
  const tag = `${store}-${kind}-${Date.now().toString(36)}`;
  const channel = `CBENCH${kind === 'distinct' ? 'A' : 'B'}${store === 'pglite' ? 'P' : 'S'}`;
  const specs = Array.from({ length: events }, (_, i) =>
    slackEvent({ text: `<@UCANDOR> ${QUESTIONS[i % QUESTIONS.length]}`, eventId: `Ev${tag}-${i}`, channel }),
  );
  const requests = specs.flatMap((spec) => Array.from({ length: deliveries }, (_, retry) => ({ spec, retry })));
  const before = slack.calls.length;
  const started = performance.now();
  // The load comes from another thread, so the client's own work does not sit on the server's event loop.
  const timings = await sendFromWorker(
    rig.eventsUrl,
    requests.map(({ spec, retry }) => ({ body: spec.body, retry })),
  );
  // Every distinct event must be answered; wait for the posts (not timed against the target).
  const postsFor = () => slack.calls.slice(before).filter((c) => c.path === '/api/chat.postMessage' && c.body.channel === channel);
  await waitFor(() => postsFor().length >= events, 120_000, `${events} answers`).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 500)); // a late duplicate would show up here
  const answersDoneMs = performance.now() - started;
  const perThread = new Map<string, number>();
  for (const post of postsFor()) {
    const thread = String(post.body.thread_ts);
    perThread.set(thread, (perThread.get(thread) ?? 0) + 1);
  }
  const rows = (await rig.app.store.db.execute(
    sql`select count(*)::int as n from interactions where channel = 'slack' and event_id like ${`Ev${tag}-%`}`,
  )) as unknown as { rows: { n: number }[] };
  const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
  const pct = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
  const answeredThreads = specs.filter((s) => perThread.has(s.ts));
  return {
    store,
    burst: kind,
    events,
    requests: requests.length,
    p50Ms: pct(50),
    p95Ms: pct(95),
    p99Ms: pct(99),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    non200: timings.filter((t) => t.status !== 200).length,
    answered: answeredThreads.length,
    answeredTwice: [...perThread.values()].filter((n) => n > 1).length,
    lost: events - answeredThreads.length,
    interactionRows: rows.rows[0]?.n ?? 0,
    answersDoneMs: round(answersDoneMs),
    targetP99Ms: TARGET_P99_MS,
  };
}

/** Fires every request at once from a worker thread, each signed as Slack signs; resolves with per-request timings. */
function sendFromWorker(url: string, requests: { body: string; retry: number }[]): Promise<{ ms: number; status: number }[]> {
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
    const worker = new Worker(source, { eval: true, workerData: { url, secret: SIGNING_SECRET, requests } });
    worker.once('message', (timings: { ms: number; status: number }[]) => {
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
