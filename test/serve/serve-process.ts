import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The PID of node itself, as this (outer) namespace sees it: the process to signal. */
  readonly pid: number;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves with the served URL once `candor` says where it listens. */
  serving(timeoutMs?: number): Promise<string>;
}

export interface ServeOptions {
  /** Run as the image does, in a PID namespace of its own (node is PID 1), under this host name. */
  readonly namespace?: { readonly hostname: string };
  /** @default ['start'] */
  readonly args?: readonly string[];
}

/** `candor start` (src/cli.ts through tsx) with only the given environment, optionally as PID 1 of a new PID namespace. */
export function startServe(env: Record<string, string>, options: ServeOptions = {}): ServeProcess {
  const node = [process.execPath, '--import', 'tsx', 'src/cli.ts', ...(options.args ?? ['start'])];
  const [command, ...args] = options.namespace
    ? [
        'unshare',
        '--pid',
        '--fork',
        '--mount-proc',
        // Mounts made and unmade here meanwhile (the disk tests') follow into the namespace's copies.
        '--propagation',
        'slave',
        '--uts',
        'sh',
        '-c',
        `hostname ${options.namespace.hostname} && exec "$@"`,
        'sh',
        ...node,
      ]
    : node;
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let pid = options.namespace ? 0 : child.pid!;
  const serving = (timeoutMs = 90_000) =>
    new Promise<string>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const match = /Candor is serving on (http:\/\/\S+)/.exec(stderr);
        if (match) {
          clearInterval(poll);
          if (!pid) pid = childOf(child.pid!);
          resolve(match[1]!);
        } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
          clearInterval(poll);
          reject(new Error(`candor did not start serving; stderr:\n${stderr}`));
        }
      }, 25);
    });
  return {
    child,
    get pid() {
      if (!pid) pid = childOf(child.pid!);
      return pid;
    },
    stderr: () => stderr,
    exited,
    serving,
  };
}

/** unshare --fork's one child: PID 1 inside the namespace (sh, which exec'd node). */
function childOf(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
  if (children.length !== 1 || !children[0]) throw new Error(`expected one child of ${pid}, found ${children.join(',')}`);
  return children[0];
}

/** Why this machine cannot run a command as root (null when it can), for a skipped suite's name. */
export function cannotRun(command: string[], what: string): string | null {
  if (process.platform !== 'linux') return `${what} needs Linux`;
  if (process.getuid?.() !== 0) return `${what} needs root (run the suite as root, e.g. in CI's container)`;
  const run = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
  return run.status === 0 ? null : `${what} is not possible here: ${command.join(' ')} → ${(run.stderr || String(run.error)).trim()}`;
}

export interface AskResult {
  readonly status: number;
  readonly interactionId: number | null;
}

/** POST /api/ask; null when the server did not answer (killed, not listening). */
export async function ask(url: string, question: string, timeoutMs = 10_000): Promise<AskResult | null> {
  try {
    const res = await fetch(`${url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { interactionId?: number | null };
    return { status: res.status, interactionId: body.interactionId ?? null };
  } catch {
    return null;
  }
}

export async function health(
  url: string,
): Promise<{ status: number; body: { status: string; failing?: { name: string; detail: string }[] } } | null> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: (await res.json()) as { status: string; failing?: { name: string; detail: string }[] } };
  } catch {
    return null;
  }
}

/** Sends `signal` to the server's node and resolves with how long it took to exit, and its code. */
export async function stopWith(server: ServeProcess, signal: NodeJS.Signals): Promise<{ ms: number; code: number | null }> {
  const started = performance.now();
  process.kill(server.pid, signal);
  const code = await server.exited;
  return { ms: Math.round(performance.now() - started), code };
}
