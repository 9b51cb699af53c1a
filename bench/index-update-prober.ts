/**
 * The outside observer of bench/index-update.bench.ts, in a process of its own (forked with an IPC channel), so
 * that what it measures is what a load balancer's probe or a user on another KB sees, not the server's own event
 * loop: GET /healthz and POST /api/ask (a small KB) at fixed rates, open loop (a request is sent when it is due,
 * whether or not the ones before it were answered), and the server's resident set size from /proc/PID/status.
 * Every sample carries its wall-clock time (ms since the epoch, sub-ms), so the bench cuts them into phases.
 *
 * Messages: in `{type:'start', …ProbeSettings}` then `{type:'stop'}`; out `{type:'started'}`, then the
 * samples as `{type:'samples', …ProbeSamples}` after a stop.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

import { wallNow } from './index-update-server.js';

export interface ProbeSettings {
  readonly url: string;
  /** The server's PID, for VmRSS. */
  readonly pid: number;
  readonly healthzPerSecond: number;
  readonly askPerSecond: number;
  readonly askKb: string;
  readonly questions: readonly string[];
  /** How often VmRSS is read, ms. */
  readonly rssEveryMs: number;
}

/** One request: when it was sent, how long until its whole answer was read (ms), and the status (0: no answer). */
export type RequestSample = readonly [sentAt: number, ms: number, status: number];

export interface ProbeSamples {
  readonly healthz: readonly RequestSample[];
  readonly asks: readonly RequestSample[];
  /** [at, VmRSS in kB]. */
  readonly rss: readonly (readonly [number, number])[];
  /** [at, ms]: how late the prober's own timers fired, one per due request (a starved prober sends late). */
  readonly late: readonly (readonly [number, number])[];
}

const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
let inFlight = 0;

function send(url: URL, method: 'GET' | 'POST', body: string | null, out: RequestSample[]): void {
  const sentAt = wallNow();
  inFlight += 1;
  let answered = false;
  const done = (status: number) => {
    if (answered) return;
    answered = true;
    inFlight -= 1;
    out.push([sentAt, wallNow() - sentAt, status]);
  };
  const req = request(
    url,
    { method, agent, headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
    (res) => {
      res.on('data', () => undefined);
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', () => done(0));
    },
  );
  req.setTimeout(60_000, () => req.destroy());
  req.on('error', () => done(0));
  req.end(body ?? undefined);
}

/** Calls `fire` every `periodMs` on a fixed schedule; a slot the prober itself missed is skipped (and its lateness kept). */
function every(periodMs: number, fire: () => void, late: [number, number][]): () => void {
  let due = wallNow();
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = wallNow();
    late.push([now, now - due]);
    fire();
    due += periodMs;
    if (due < now) due += Math.ceil((now - due) / periodMs) * periodMs;
    timer = setTimeout(tick, Math.max(0, due - wallNow()));
  };
  timer = setTimeout(tick, 0);
  return () => clearTimeout(timer);
}

function vmRssKb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited
  }
}

function start(settings: ProbeSettings): () => ProbeSamples {
  const samples = {
    healthz: [] as RequestSample[],
    asks: [] as RequestSample[],
    rss: [] as [number, number][],
    late: [] as [number, number][],
  };
  const healthz = new URL('/healthz', settings.url);
  const ask = new URL('/api/ask', settings.url);
  let asked = 0;
  const stops = [
    every(1000 / settings.healthzPerSecond, () => send(healthz, 'GET', null, samples.healthz), samples.late),
    every(settings.rssEveryMs, () => samples.rss.push([wallNow(), vmRssKb(settings.pid)]), []),
  ];
  if (settings.askPerSecond > 0) {
    const body = () => JSON.stringify({ question: settings.questions[asked++ % settings.questions.length], kb: settings.askKb });
    stops.push(every(1000 / settings.askPerSecond, () => send(ask, 'POST', body(), samples.asks), samples.late));
  }
  return () => {
    for (const stop of stops) stop();
    return samples;
  };
}

let stop: (() => ProbeSamples) | null = null;
process.on('message', (message: ({ type: 'start' } & ProbeSettings) | { type: 'stop' }) => {
  if (message.type === 'start') {
    stop = start(message);
    process.send?.({ type: 'started' });
  } else if (stop) {
    const samples = stop();
    // The requests still in flight are waited for (10 s at most): a stalled one is the sample that matters.
    const until = wallNow() + 10_000;
    const flush = () => {
      if (inFlight > 0 && wallNow() < until) return void setTimeout(flush, 5);
      process.send?.({ type: 'samples', ...samples }, () => process.exit(0));
    };
    flush();
  }
});
process.on('disconnect', () => process.exit(0));
