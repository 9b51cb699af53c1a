import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startFakePlatforms } from './fake-platforms.js';
import { collectGarbage } from './inspector-gc.js';
import { ServerStderr, type ServerError } from './server-stderr.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the fuzzer may know about the server's secrets, so that it can get past each check and fuzz what is behind it. */
export interface FuzzSecrets {
  readonly slackSigningSecret?: string | undefined;
  readonly apiToken?: string | undefined;
  readonly consoleToken?: string | undefined;
  readonly metricsToken?: string | undefined;
}

export interface ServerExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly atMs: number;
}

/** A server under test: its address, and (when known) its process. */
export interface ServerHandle {
  readonly url: string;
  readonly port: number;
  /** Null when the fuzzer was pointed at a server it does not know the process of. */
  readonly pid: number | null;
  readonly secrets: FuzzSecrets;
  /** The Teams channel takes unauthenticated activities (CANDOR_TEAMS_ALLOW_ANONYMOUS). */
  readonly teamsAnonymous: boolean;
  /** Where a Teams activity's serviceUrl may point so that replies land somewhere harmless. */
  readonly serviceUrl: string;
  /** A valid Bot Framework token for an activity's serviceUrl; absent when the server's signing keys are not ours. */
  readonly channelToken?: (serviceUrl: string, nowSeconds: number) => string;
  /** Null while the process runs. */
  exit(): ServerExit | null;
  /** VmRSS from /proc/PID/status, in MB; null when unknown. */
  rssMb(): number | null;
  /** A full GC in the server (through its inspector), so that the RSS read next is what it keeps; absent when not possible. */
  readonly collectGarbage?: () => Promise<void>;
  errors(): ServerError[];
  stderrTail(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly teamsAnonymous?: boolean;
  /** PostgreSQL instead of a temporary PGlite folder. */
  readonly databaseUrl?: string | undefined;
  readonly progress?: (line: string) => void;
  /** @default 120000 */
  readonly startTimeoutMs?: number;
}

/** The Teams app id the server runs as (tokens are signed for it). */
export const APP_ID = '00000000-0000-4000-8000-00000000f022';

const SECRETS = {
  slackSigningSecret: 'fuzz-signing-secret-5f0c2a9e1b7d',
  apiToken: 'fuzz-api-token-8c1e4b7a2d9f6e3c',
  consoleToken: 'fuzz-console-token-3a7d1f9c5e2b8a4d',
  metricsToken: 'fuzz-metrics-token-6b2e9d4a1c7f3e5b',
} as const;

/** A knowledge base of three short documents: enough for answers and refusals, ingested in seconds. */
const KB: Record<string, string> = {
  'leave.md':
    '# Leave policy\n\nEmployees get 20 days of annual leave per year.\n\nSick leave needs a medical certificate after two days.\n',
  'expenses.md': '# Expenses\n\nClaims are submitted within 30 days with receipts.\n\nTaxis are reimbursed after 10 pm.\n',
  'security.md': '# Security\n\nLaptops must use full-disk encryption.\n\n| Item | Rule |\n|---|---|\n| Passwords | 14 characters |\n',
};

/**
 * Starts `candor serve` the way an operator would: a temporary data folder
 * (or DATABASE_URL), a tiny KB ingested with `candor ingest`, Slack over HTTP
 * and Teams (Bot Framework JWT, or anonymous) against a local fake of both
 * platforms, the console, and tokens on the API and metrics.
 */
export async function startCandorUnderTest(options: StartOptions = {}): Promise<ServerHandle> {
  const progress = options.progress ?? (() => undefined);
  const teamsAnonymous = options.teamsAnonymous ?? false;
  const dir = mkdtempSync(join(tmpdir(), 'candor-fuzz-'));
  const fake = await startFakePlatforms();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { CANDOR_DATA_DIR: join(dir, 'data') }),
    CANDOR_KB: 'fuzz',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    CANDOR_TRACE_EXPORTER: 'none',
    SLACK_BOT_TOKEN: 'xoxb-fuzz-0000',
    SLACK_SIGNING_SECRET: SECRETS.slackSigningSecret,
    SLACK_API_URL: `${fake.url}/api/`,
    CANDOR_CONSOLE_TOKEN: SECRETS.consoleToken,
    CANDOR_API_TOKEN: SECRETS.apiToken,
    CANDOR_METRICS_TOKEN: SECRETS.metricsToken,
    ...(teamsAnonymous
      ? { CANDOR_TEAMS_ALLOW_ANONYMOUS: 'true' }
      : { MICROSOFT_APP_ID: APP_ID, MICROSOFT_APP_PASSWORD: 'fuzz-app-password', MICROSOFT_OPENID_METADATA_URL: fake.openIdMetadataUrl }),
  };
  const cleanup = async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    mkdirSync(join(dir, 'kb'));
    for (const [name, text] of Object.entries(KB)) writeFileSync(join(dir, 'kb', name), text);
    progress(`ingesting a ${Object.keys(KB).length}-document KB into ${options.databaseUrl ? 'DATABASE_URL' : join(dir, 'data')}`);
    const ingest = await runToEnd(spawnCandor(['ingest', join(dir, 'kb')], env), options.startTimeoutMs ?? 120_000);
    if (ingest.code !== 0) throw new Error(`candor ingest exited ${ingest.code}:\n${ingest.stderr}`);
  } catch (error) {
    await cleanup();
    throw error;
  }
  // The inspector (loopback, a free port) lets the fuzzer run a full GC before each RSS reading that counts.
  const child = spawnCandor(['serve'], env, ['--inspect=127.0.0.1:0']);
  // The fuzzer must not leave a server (or its temporary folder) behind, however it ends.
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const stderr = new ServerStderr();
  child.stderr!.on('data', (chunk: Buffer) => stderr.write(chunk));
  child.stdout!.resume();
  const started = Date.now();
  let exit: ServerExit | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal, atMs: Date.now() - started };
      resolve();
    }),
  );
  let url: string;
  try {
    url = await serving(child, stderr, options.startTimeoutMs ?? 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    process.off('exit', killOnExit);
    await cleanup();
    throw error;
  }
  progress(`candor serve (pid ${child.pid}) is serving on ${url}`);
  const pid = child.pid ?? null;
  const debuggerUrl = /Debugger listening on (ws:\/\/\S+)/.exec(stderr.startup)?.[1];
  return {
    url,
    port: Number(new URL(url).port),
    pid,
    secrets: SECRETS,
    teamsAnonymous,
    serviceUrl: `${fake.url}/`,
    ...(teamsAnonymous ? {} : { channelToken: (serviceUrl: string, now: number) => fake.channelToken(APP_ID, serviceUrl, now) }),
    exit: () => exit,
    rssMb: () => (exit === null && pid !== null ? readRssMb(pid) : null),
    ...(debuggerUrl ? { collectGarbage: () => collectGarbage(debuggerUrl) } : {}),
    errors: () => stderr.errorsSeen(),
    stderrTail: () => stderr.tailText(),
    async stop() {
      if (exit === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      process.off('exit', killOnExit);
      await cleanup();
    },
  };
}

/** VmRSS of a process in MB, from /proc (Linux); null when it cannot be read. */
export function readRssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

function spawnCandor(args: string[], env: Record<string, string>, nodeFlags: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function runToEnd(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function serving(child: ChildProcess, stderr: ServerStderr, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const match = /Candor is serving on (http:\/\/\S+)/.exec(stderr.startup);
      if (match) {
        clearInterval(poll);
        resolve(match[1]!);
      } else if (child.exitCode !== null || child.signalCode !== null || Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`candor serve did not start; stderr:\n${stderr.startup}`));
      }
    }, 50);
  });
}
