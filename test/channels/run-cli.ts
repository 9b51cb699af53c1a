import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A test that starts `candor` processes: each costs node and tsx's start (~1.7 s) and opening the store, and a
 * loaded two-core CI machine is 2–3× slower than a quiet one; a hang is what must fail, not a busy machine.
 */
export const PROCESS_TEST_MS = 120_000;

export interface CliRun {
  readonly child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Resolves with the served URL once `candor serve` says where it listens. */
  serving(timeoutMs?: number): Promise<string>;
}

/** Runs `candor ARGS` (src/cli.ts through tsx) with only the given environment. */
export function runCli(args: string[], env: Record<string, string>): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    exited,
    serving: (timeoutMs = 90_000) =>
      new Promise<string>((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const match = /Candor is serving on (http:\/\/\S+)/.exec(stderr);
          if (match) {
            clearInterval(poll);
            resolve(match[1]!);
          } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(poll);
            reject(new Error(`candor did not start serving; stderr:\n${stderr}`));
          }
        }, 50);
      }),
  };
}
