// `npm run fuzz -- [options]`: a bounded fuzzer for Candor's HTTP server (issue 17, item 7).
// It starts `candor serve` on 127.0.0.1 (or is pointed at one with --url), sends malformed request
// targets, methods, headers and bodies to every endpoint, and fails (exit 1) on a server exit, a 5xx,
// a request with no answer within 5 s, or RSS growth past a bound after warm-up.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { attachServer, loopbackUrl } from './fuzz/attach-server.js';
import { startCandorUnderTest, type ServerHandle } from './fuzz/candor-under-test.js';
import { formatSummary } from './fuzz/format-summary.js';
import { seedFrom } from './fuzz/prng.js';
import { sendRaw } from './fuzz/raw-http.js';
import { ALL_CASES } from './fuzz/request-mix.js';
import { runFuzz } from './fuzz/run-fuzz.js';

const USAGE = `Usage: npm run fuzz -- [options]

  --requests N          requests to send (default 20000)
  --seconds S           stop early after S seconds
  --seed X              the PRNG seed: the same seed sends the same requests (default 1)
  --concurrency N       requests in flight at once (default 8)
  --rss-bound-mb N      fail when the server's RSS grows more than N MB after warm-up (default 50)
  --timeout-ms N        a request with no complete answer after N ms is a hang (default 5000)
  --teams-anonymous     start the server with CANDOR_TEAMS_ALLOW_ANONYMOUS=true (no MICROSOFT_APP_ID), so
                        every activity gets past authentication (otherwise a share carries tokens signed
                        by a local fake of the Bot Framework's OpenID endpoint)
  --only A,B            only these generators (see --list)
  --list                print the generators' names and exit
  --json                print one JSON summary object on stdout (progress stays on stderr)
  --replay BASE64       with --url: send one request's bytes (a failure's "replay" field) and print the answer
  --url URL             fuzz a running server instead (http://127.0.0.1:PORT only); with it:
    --pid PID           its process, for exits and RSS (/proc/PID/status)
    --slack-signing-secret S, --api-token T, --console-token T, --metrics-token T
                        its secrets, so that requests get past its checks; --teams-anonymous if it runs so

Without --url it starts its own: a temporary PGlite folder (or DATABASE_URL), a tiny KB, Slack and Teams
against a local fake of both platforms, the console, and tokens on /api/ask and /metrics.
Exit codes: 0 no failure, 1 failures found, 2 usage or start-up error.`;

export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        requests: { type: 'string' },
        seconds: { type: 'string' },
        seed: { type: 'string' },
        concurrency: { type: 'string' },
        'rss-bound-mb': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'teams-anonymous': { type: 'boolean', default: false },
        only: { type: 'string' },
        list: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        replay: { type: 'string' },
        url: { type: 'string' },
        pid: { type: 'string' },
        'slack-signing-secret': { type: 'string' },
        'api-token': { type: 'string' },
        'console-token': { type: 'string' },
        'metrics-token': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const v = args.values;
  if (v.help) return (process.stdout.write(`${USAGE}\n`), 0);
  if (v.list) return (process.stdout.write(`${Object.keys(ALL_CASES).join('\n')}\n`), 0);
  const numbers = {
    requests: count(v.requests, 20_000, 1),
    seconds: v.seconds === undefined ? undefined : count(v.seconds, 0, 1),
    concurrency: count(v.concurrency, 8, 1),
    rssBoundMb: count(v['rss-bound-mb'], 50, 0),
    timeoutMs: count(v['timeout-ms'], 5_000, 100),
    pid: v.pid === undefined ? undefined : count(v.pid, 0, 1),
  };
  const bad = Object.entries(numbers).find(([, n]) => Number.isNaN(n));
  if (bad) return usage(`--${bad[0].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be a whole number`);
  const only = v.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.find((name) => !(name in ALL_CASES));
  if (unknown) return usage(`--only: no generator "${unknown}" (see --list)`);
  const progress = (line: string) => process.stderr.write(`${line}\n`);

  let server: ServerHandle;
  if (v.url !== undefined) {
    const checked = loopbackUrl(v.url);
    if (!checked.ok) return usage(checked.problem);
    const secrets = {
      slackSigningSecret: v['slack-signing-secret'],
      apiToken: v['api-token'],
      consoleToken: v['console-token'],
      metricsToken: v['metrics-token'],
    };
    if (v.replay !== undefined) return replay(Number(checked.url.port), v.replay, numbers.timeoutMs);
    server = await attachServer(checked.url, { pid: numbers.pid, secrets, teamsAnonymous: v['teams-anonymous'] });
  } else if (v.replay !== undefined) {
    return usage('--replay needs --url');
  } else {
    try {
      server = await startCandorUnderTest({ teamsAnonymous: v['teams-anonymous'], databaseUrl: process.env.DATABASE_URL, progress });
    } catch (error) {
      process.stderr.write(`fuzz: could not start the server: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const interrupted = () => void server.stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  try {
    const seed = seedFrom(v.seed ?? '1');
    progress(`fuzz: ${numbers.requests} requests, seed ${seed}, concurrency ${numbers.concurrency} against ${server.url}`);
    const { requests, seconds, concurrency, rssBoundMb, timeoutMs } = numbers;
    const summary = await runFuzz({ server, seed, requests, seconds, concurrency, rssBoundMb, timeoutMs, only, progress });
    process.stdout.write(v.json ? `${JSON.stringify(summary)}\n` : formatSummary(summary));
    return summary.ok ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupted);
    await server.stop();
  }
}

/** Sends one recorded request as it was (its Host header names the old port; no route reads it) and prints the answer. */
async function replay(port: number, base64: string, timeoutMs: number): Promise<number> {
  const result = await sendRaw(port, Buffer.from(base64, 'base64'), { timeoutMs });
  const head = result.status === undefined ? result.outcome : `${result.status} ${JSON.stringify(result.headers)}`;
  process.stdout.write(`${head} (${result.ms} ms)\n${result.body?.subarray(0, 2000).toString('utf8') ?? ''}\n`);
  return result.outcome === 'response' && result.status! < 500 ? 0 : 1;
}

/** A whole number of at least `min`, `fallback` when absent, NaN when it is not one. */
function count(text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  return /^\d+$/.test(text) && Number(text) >= min ? Number(text) : Number.NaN;
}

function usage(message: string): number {
  process.stderr.write(`fuzz: ${message}\n\n${USAGE}\n`);
  return 2;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
