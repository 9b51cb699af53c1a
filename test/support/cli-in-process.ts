import { vi } from 'vitest';

import { RETIRED_SETTINGS, settingsSchema } from '../../src/config/settings-schema.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Every setting Candor reads (and OpenTelemetry's own), cleared for the command: as in a spawned
 * process given only PATH, HOME and its env, the developer's shell cannot point it elsewhere.
 * NODE_ENV stays as the test runner set it.
 */
function settingNames(): string[] {
  const named = [...Object.keys(settingsSchema.shape), ...Object.keys(RETIRED_SETTINGS)].filter((name) => name !== 'NODE_ENV');
  return [...new Set([...named, ...Object.keys(process.env).filter((name) => /^(CANDOR|OTEL)_/.test(name))])];
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * `candor ARGS` in this process, through the entry point bin/candor.js calls
 * (runCli: exit code, and a thrown error printed as one line), with `env` over
 * this process's environment less every setting. What the command writes to
 * process.stdout, process.stderr and the console is captured; pino's own
 * lines go to fd 2 and are not. Calls run one after another (the environment, the exit code and
 * the streams are the process's), so Promise.all of several is safe.
 */
export function candorInProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  /** Another build's runCli (the packed dist/src/cli.js). @default src/cli.ts's */
  entry?: (argv: string[]) => void,
): Promise<CliResult> {
  const run = queue.then(async () => runOne(entry ?? (await import('../../src/cli.js')).runCli, args, env));
  queue = run.catch(() => undefined);
  return run;
}

async function runOne(runCli: (argv: string[]) => void, args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const cleared = settingNames();
  const saved = new Map([...cleared, ...Object.keys(env)].map((name) => [name, process.env[name]]));
  for (const name of cleared) delete process.env[name];
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  // Vitest routes console.* around process.stdout: a stray console.log would be a line a script reads.
  const toStdout = (...parts: unknown[]) => void (stdout += `${parts.map(String).join(' ')}\n`);
  const toStderr = (...parts: unknown[]) => void (stderr += `${parts.map(String).join(' ')}\n`);
  const consoles = [
    vi.spyOn(console, 'log').mockImplementation(toStdout),
    vi.spyOn(console, 'info').mockImplementation(toStdout),
    vi.spyOn(console, 'warn').mockImplementation(toStderr),
    vi.spyOn(console, 'error').mockImplementation(toStderr),
  ];
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    runCli([...args]);
    // runCli sets the exit code once the command has finished (or failed).
    while (process.exitCode === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    return { code: Number(process.exitCode), stdout, stderr };
  } finally {
    process.exitCode = before;
    out.mockRestore();
    err.mockRestore();
    for (const spy of consoles) spy.mockRestore();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
