import type { ServerHandle } from './candor-under-test.js';
import { serialise, type FuzzContext, type FuzzRequest } from './fuzz-request.js';
import { addFailure, emptyFailures, judge, type FuzzSummary } from './fuzz-summary.js';
import { createPrng } from './prng.js';
import { sendRaw, type RawResult } from './raw-http.js';
import { nextRequest } from './request-mix.js';
import { watchRss } from './rss-watch.js';

export interface FuzzOptions {
  readonly server: ServerHandle;
  /** @default 20000 */
  readonly requests?: number;
  /** Stop early when this many seconds have passed. */
  readonly seconds?: number | undefined;
  readonly seed: number;
  /** Requests in flight at once. @default 8 */
  readonly concurrency?: number;
  /** @default 50 */
  readonly rssBoundMb?: number;
  /** A request (or a health probe) with no complete answer after this long is a hang. @default 5000 */
  readonly timeoutMs?: number;
  /** Only these generators (names from ALL_CASES). */
  readonly only?: readonly string[] | undefined;
  /** Requests before the RSS baseline is taken. @default 10% of requests, 50 to 1000 */
  readonly warmup?: number;
  readonly progress?: (line: string) => void;
  /** @default 3000 */
  readonly progressEveryMs?: number;
  /** @default 250 */
  readonly probeEveryMs?: number;
}

/**
 * Sends `requests` generated requests to the server, `concurrency` at a time,
 * beside a GET /healthz probe every `probeEveryMs`, and says what went wrong:
 * exits, 5xx, hangs, and RSS growth after the warm-up.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const { server } = options;
  const total = options.requests ?? 20_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const warmup = options.warmup ?? Math.min(1_000, Math.max(50, Math.floor(total / 10)));
  const progress = options.progress ?? (() => undefined);
  const rng = createPrng(options.seed);
  const started = performance.now();
  const deadline = options.seconds === undefined ? Infinity : started + options.seconds * 1000;
  let counter = 0;
  const ctx: FuzzContext = {
    rng,
    port: server.port,
    secrets: server.secrets,
    serviceUrl: server.serviceUrl,
    teamsAnonymous: server.teamsAnonymous,
    channelToken: server.channelToken,
    sessionCookie: await login(server, timeoutMs),
    nowSeconds: () => Math.floor(Date.now() / 1000),
    unique: () => (options.seed % 100_000) * 1_000_000 + (counter += 1),
  };
  const summary: FuzzSummary = {
    ok: true,
    failures: [],
    seed: options.seed,
    requests: 0,
    durationMs: 0,
    byEndpoint: {},
    byKind: {},
    byStatus: {},
    exits: [],
    fiveXX: emptyFailures(),
    hangs: emptyFailures(),
    slow: emptyFailures(),
    probes: { sent: 0, maxMs: 0, over1s: 0, stalls: 0 },
    rssStartMb: null,
    rssEndMb: null,
    rssPeakMb: null,
    rssGrowthMb: null,
    rssBoundMb: options.rssBoundMb ?? 50,
    rssSeriesMb: [],
    rssMethod: 'troughs',
    serverErrors: [],
  };
  let sent = 0;
  let completed = 0;
  // After the warm-up, a full GC and the RSS baseline; the workers wait for it (in flight requests finish meanwhile).
  let baseline: Promise<number | null> | null = null;
  const afterGc = async (): Promise<number | null> => {
    if (!server.collectGarbage) return null;
    try {
      await server.collectGarbage();
      return server.rssMb();
    } catch {
      return null;
    }
  };
  const stopped = () => server.exit() !== null || performance.now() > deadline;

  const record = (req: FuzzRequest, bytes: Buffer, result: RawResult) => {
    const status = result.outcome === 'response' ? String(result.status) : result.outcome;
    summary.byStatus[status] = (summary.byStatus[status] ?? 0) + 1;
    const endpoint = (summary.byEndpoint[req.endpoint] ??= { requests: 0, maxMs: 0, byStatus: {} });
    endpoint.requests += 1;
    endpoint.maxMs = Math.max(endpoint.maxMs, result.ms);
    endpoint.byStatus[status] = (endpoint.byStatus[status] ?? 0) + 1;
    const kind = (summary.byKind[req.kind] ??= {});
    kind[status] = (kind[status] ?? 0) + 1;
    if (result.outcome === 'hang') addFailure(summary.hangs, req, bytes, result);
    else if (result.outcome === 'response' && result.status! >= 500) addFailure(summary.fiveXX, req, bytes, result);
    if (result.outcome !== 'hang' && result.ms > 1_000) addFailure(summary.slow, req, bytes, result);
  };

  const worker = async () => {
    while (sent < total && !stopped()) {
      if (baseline) await baseline;
      if (sent >= total || stopped()) break;
      sent += 1;
      // Generated synchronously, in order: the same seed gives the same sequence whatever the timing.
      const req = nextRequest(ctx, options.only);
      const bytes = serialise(req, server.port, rng);
      const cuts = rng.chance(0.1) ? [rng.int(bytes.length), rng.int(bytes.length)] : [];
      const result = await sendRaw(server.port, bytes, {
        timeoutMs,
        head: req.method === 'HEAD',
        halfClose: req.halfClose,
        cuts,
        localAddress: req.from,
      });
      summary.requests += 1;
      completed += 1;
      record(req, bytes, result);
      if (completed === warmup) baseline = afterGc();
    }
  };

  const probe = startProbes(server, summary, timeoutMs, options.probeEveryMs ?? 250, () => completed);
  const rss = watchRss(
    () => server.rssMb(),
    () => completed,
  );
  const reporter = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    progress(
      `fuzz: ${completed}/${total} requests in ${seconds.toFixed(0)} s (${(completed / seconds).toFixed(0)}/s), ` +
        `5xx ${summary.fiveXX.count}, hangs ${summary.hangs.count}, healthz max ${summary.probes.maxMs} ms, ` +
        `rss ${rss.latest() ?? '?'} MB${server.exit() ? ', SERVER EXITED' : ''}`,
    );
  }, options.progressEveryMs ?? 3_000);
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  } finally {
    clearInterval(reporter);
    await probe.stop();
  }
  // Let answers queued by the last requests settle before the last RSS readings.
  await new Promise((r) => setTimeout(r, 1_000));
  const [gcStart, gcEnd] = [await baseline, await afterGc()];
  Object.assign(summary, rss.stop(warmup, completed));
  if (gcStart !== null && gcEnd !== null) {
    Object.assign(summary, { rssMethod: 'after-gc', rssStartMb: gcStart, rssEndMb: gcEnd });
    summary.rssGrowthMb = Math.round((gcEnd - gcStart) * 10) / 10;
  }
  const exit = server.exit();
  if (exit) summary.exits.push({ ...exit, stderrTail: server.stderrTail() });
  summary.serverErrors = server.errors();
  summary.durationMs = Math.round(performance.now() - started);
  summary.failures = judge(summary);
  summary.ok = summary.failures.length === 0;
  return summary;
}

/** GET /healthz on a timer, one at a time: counts slow answers and stalls (no answer within the deadline). */
function startProbes(server: ServerHandle, summary: FuzzSummary, timeoutMs: number, everyMs: number, completed: () => number) {
  let running = true;
  const bytes = Buffer.from(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
  const req: FuzzRequest = { endpoint: '/healthz', kind: 'probe.healthz', method: 'GET', target: '/healthz', headers: [] };
  const loop = (async () => {
    while (running && server.exit() === null) {
      const result = await sendRaw(server.port, bytes, { timeoutMs });
      summary.probes.sent += 1;
      summary.probes.maxMs = Math.max(summary.probes.maxMs, result.ms);
      if (result.ms > 1_000) summary.probes.over1s += 1;
      if (result.outcome === 'hang') {
        summary.probes.stalls += 1;
        addFailure(summary.hangs, { ...req, target: `/healthz (after ${completed()} requests)` }, bytes, result);
      } else if (result.outcome === 'response' && result.status! >= 500) {
        addFailure(summary.fiveXX, req, bytes, result);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The console's session cookie from its login form, so that pages behind it are fuzzed too. */
async function login(server: ServerHandle, timeoutMs: number): Promise<string | undefined> {
  const token = server.secrets.consoleToken;
  if (!token) return undefined;
  const body = `token=${encodeURIComponent(token)}&next=%2F`;
  const bytes = Buffer.from(
    `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  const result = await sendRaw(server.port, bytes, { timeoutMs });
  const cookie = result.headers?.['set-cookie']?.split(';')[0];
  return cookie && cookie.includes('=') ? cookie : undefined;
}
