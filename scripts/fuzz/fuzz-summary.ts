import type { ServerExit } from './candor-under-test.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { RawResult } from './raw-http.js';
import type { ServerError } from './server-stderr.js';

/** A request that failed (5xx or hang), told so that it can be read and replayed. */
export interface FailureRecord {
  readonly endpoint: string;
  readonly kind: string;
  readonly outcome: RawResult['outcome'];
  readonly status: number | null;
  readonly ms: number;
  readonly request: {
    /** The loopback address it was sent from, when not the default. */
    readonly from?: string;
    readonly method: string;
    readonly target: string;
    readonly headers: readonly string[];
    readonly bodyBytes: number;
    readonly bodyStart: string;
  };
  readonly response: string | null;
  /** The request's bytes in base64 (up to 16 KB), for `base64 -d | nc 127.0.0.1 PORT`. */
  readonly replay: string | null;
}

export interface FailureList {
  count: number;
  /** Count by generator and status ("slack.signed.shape 500"). */
  readonly byKind: Record<string, number>;
  /** The first few of each kind. */
  readonly first: FailureRecord[];
}

export interface FuzzSummary {
  ok: boolean;
  /** One line for each reason the run failed. */
  failures: string[];
  seed: number;
  /** Fuzz requests sent (health probes not included). */
  requests: number;
  durationMs: number;
  byEndpoint: Record<string, { requests: number; maxMs: number; byStatus: Record<string, number> }>;
  /** Status counts by generator, to see what each kind of request got. */
  byKind: Record<string, Record<string, number>>;
  /** HTTP status, or closed / reset / hang / refused when there was no response. */
  byStatus: Record<string, number>;
  exits: (ServerExit & { stderrTail: string })[];
  fiveXX: FailureList;
  hangs: FailureList;
  /** Answers that took over a second (not a failure: a hint of where time goes). */
  slow: FailureList;
  /** GET /healthz every few hundred ms beside the fuzzing: an event-loop stall shows as a slow or missing answer. */
  probes: { sent: number; maxMs: number; over1s: number; stalls: number };
  /**
   * RSS (MB) after warm-up: read right after a full GC in the server when the fuzzer started it (`after-gc`),
   * else the lowest reading in the first quarter of the run after warm-up (`troughs`, see rss-watch.ts).
   */
  rssStartMb: number | null;
  /** RSS at the end, the same way: after a full GC, or the lowest reading in the last quarter. */
  rssEndMb: number | null;
  rssMethod: 'after-gc' | 'troughs';
  rssPeakMb: number | null;
  rssGrowthMb: number | null;
  rssBoundMb: number;
  rssSeriesMb: number[];
  /** Error lines of the server's stderr, grouped (self-started servers only). */
  serverErrors: ServerError[];
}

const PER_KIND = 3;
const MAX_LISTED = 40;

export function emptyFailures(): FailureList {
  return { count: 0, byKind: {}, first: [] };
}

export function addFailure(list: FailureList, req: FuzzRequest, bytes: Buffer, result: RawResult): void {
  list.count += 1;
  const key = `${req.kind} ${result.outcome === 'response' ? result.status : result.outcome}`;
  list.byKind[key] = (list.byKind[key] ?? 0) + 1;
  if (list.byKind[key]! > PER_KIND || list.first.length >= MAX_LISTED) return;
  list.first.push(describeFailure(req, bytes, result));
}

function describeFailure(req: FuzzRequest, bytes: Buffer, result: RawResult): FailureRecord {
  const body = req.raw ? Buffer.alloc(0) : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body ?? '', 'utf8');
  return {
    endpoint: req.endpoint,
    kind: req.kind,
    outcome: result.outcome,
    status: result.status ?? null,
    ms: result.ms,
    request: {
      ...(req.from ? { from: req.from } : {}),
      method: cut(req.method, 40),
      target: cut(req.target, 200),
      headers: req.headers.map(([n, v]) => cut(`${n}: ${v}`, 160)),
      bodyBytes: req.raw ? bytes.length : body.length,
      bodyStart: cut((req.raw ?? body).subarray(0, 400).toString('utf8'), 400),
    },
    response: result.body ? cut(result.body.subarray(0, 400).toString('utf8'), 400) : null,
    replay: bytes.length <= 16_384 ? bytes.toString('base64') : null,
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** The reasons a run fails: the server exited, answered 5xx, hung, or grew past the bound. */
export function judge(summary: FuzzSummary): string[] {
  const reasons: string[] = [];
  for (const e of summary.exits) reasons.push(`the server exited (code ${e.code}, signal ${e.signal}) after ${e.atMs} ms`);
  if (summary.fiveXX.count > 0) {
    const kinds = Object.entries(summary.fiveXX.byKind).map(([k, n]) => `${k} ×${n}`);
    reasons.push(`${summary.fiveXX.count} responses were 5xx: ${kinds.join(', ')}`);
  }
  if (summary.hangs.count > 0) {
    const kinds = Object.entries(summary.hangs.byKind).map(([k, n]) => `${k} ×${n}`);
    reasons.push(`${summary.hangs.count} requests had no complete answer within the deadline: ${kinds.join(', ')}`);
  }
  if (summary.rssGrowthMb !== null && summary.rssGrowthMb > summary.rssBoundMb) {
    reasons.push(`the server's RSS grew ${summary.rssGrowthMb} MB after warm-up, trough to trough (bound ${summary.rssBoundMb} MB)`);
  }
  return reasons;
}
