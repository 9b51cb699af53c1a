/**
 * bench/index-update.bench.ts's handles on Candor: `candor serve` as a child process, CLI commands beside it, and the
 * HTTP calls the bench makes itself; plus the latency summary it reports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { RequestSample } from './index-update-prober.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Wall-clock ms since the epoch with sub-ms resolution, comparable across the bench's processes. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** How Candor is run: src/ through tsx (as `npm start`), or the compiled CLI (as the image; `npm run build` first). */
export function candorCommand(built: boolean): string[] {
  return built ? ['bin/candor.js'] : ['--import', 'tsx', 'src/cli.ts'];
}

export interface CliRun {
  readonly stdout: string;
  readonly ms: number;
}

interface Health {
  readonly status: number;
  readonly kbs: readonly { kb: string; version: number | null; building: number | null; facts: number | null }[];
}

interface AskReply {
  readonly status: number;
  readonly body: { kb?: { version: number }; evidence?: unknown[]; decision?: string };
}

export interface Server {
  readonly url: string;
  readonly pid: number;
  /** Wall-clock ms of the spawn, and of the "Candor is serving on" line. */
  readonly spawnedAt: number;
  readonly listeningAt: number;
  health(): Promise<Health | null>;
  ask(question: string, kb: string): Promise<AskReply | null>;
  /** Runs a CLI command with the server's environment (on the embedded store it is handed to this server). */
  cli(args: readonly string[]): Promise<CliRun>;
  /** SIGTERM, and the time until the process exited (ms). */
  stop(): Promise<number>;
  /** SIGKILL, no wait (clean-up after a failure). */
  kill(): void;
}

/** Runs `candor …` to its end; throws with its stderr's tail on a non-zero exit. */
export async function runCli(args: readonly string[], env: Record<string, string>, built: boolean): Promise<CliRun> {
  const started = wallNow();
  const child = spawn(process.execPath, [...candorCommand(built), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`candor ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return { stdout, ms: wallNow() - started };
}

/** Starts `candor serve` and resolves once it says where it listens (its indexes may still be building). */
export async function startServer(env: Record<string, string>, built: boolean): Promise<Server> {
  const spawnedAt = wallNow();
  const child: ChildProcess = spawn(process.execPath, [...candorCommand(built), 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /Candor is serving on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearInterval(poll);
        resolve(match[1]!);
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`candor serve exited ${child.exitCode}:\n${stderr.slice(-2000)}`));
      }
    }, 5);
  });
  const listeningAt = wallNow();
  return {
    url,
    pid: child.pid!,
    spawnedAt,
    listeningAt,
    async health() {
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) });
        const body = (await res.json()) as { kbs?: Health['kbs'] };
        return { status: res.status, kbs: body.kbs ?? [] };
      } catch {
        return null;
      }
    },
    async ask(question, kb) {
      try {
        const res = await fetch(`${url}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question, kb }),
          signal: AbortSignal.timeout(60_000),
        });
        return { status: res.status, body: (await res.json()) as AskReply['body'] };
      } catch {
        return null;
      }
    },
    cli: (args) => runCli(args, env, built),
    async stop() {
      const t0 = wallNow();
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`candor serve exited ${code} after SIGTERM:\n${stderr.slice(-2000)}`);
      return wallNow() - t0;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}

export interface Latency {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Requests that took longer than 20 and 50 ms (the p99 and max bounds for /healthz). */
  readonly over20Ms: number;
  readonly over50Ms: number;
  /** Requests answered with anything but 200, or not answered. */
  readonly failed: number;
}

/** Nearest-rank percentile (NaN for no values). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] as number;
}

export const round1 = (x: number): number => Math.round(x * 10) / 10;

export function summarise(samples: readonly RequestSample[]): Latency {
  const ms = samples.map((s) => s[1]);
  return {
    samples: samples.length,
    p50Ms: round1(percentile(ms, 50)),
    p99Ms: round1(percentile(ms, 99)),
    maxMs: round1(ms.length === 0 ? Number.NaN : Math.max(...ms)),
    over20Ms: ms.filter((x) => x > 20).length,
    over50Ms: ms.filter((x) => x > 50).length,
    failed: samples.filter((s) => s[2] !== 200).length,
  };
}
