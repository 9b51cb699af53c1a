import { resolve } from 'node:path';

import { buildCandor, type Candor } from '../app/main.js';
import { loadConfig, type Config } from '../config.js';
import { CandorError } from '../kernel/errors.js';
import { handOffToServer } from './command-handoff-client.js';
import type { Writer } from './command-handoff-protocol.js';

/**
 * What every command is given: the settings (read when a command first needs
 * them, so help and usage errors read none), the composition root for the
 * command's run, and where its output goes.
 */
export interface Cli {
  /** The settings, read from the environment once; a bad setting throws its ConfigError here. */
  settings(): Config;
  /**
   * Builds the root, runs `run`, closes the root (unless keepOpen and `run` succeeded: a server closes itself on a
   * signal). When a running server holds the embedded data folder, the whole command line is handed to that server
   * instead (it runs there, on the server's own root; its output is printed here) and its exit code returned.
   */
  withApp(purpose: string, run: (app: Candor) => Promise<number>, options?: { keepOpen?: boolean }): Promise<number>;
  /** One line of results on stdout. */
  print(text: string): void;
  /** One line of progress or explanation on stderr, as `candor: …`. */
  progress(message: string): void;
  /** Text as it is (help pages, several lines): on stdout, or on stderr. */
  readonly out: Writer;
  readonly err: Writer;
  /** A path the person typed, resolved against the folder the command was run in. */
  path(typed: string): string;
  /** The command's exit code: 0 done, 1 failed. */
  done(code: number): void;
  readonly exitCode: number;
}

export interface CliOptions {
  /** The command line as typed: what is handed to a running server that holds the embedded data folder. */
  readonly argv?: readonly string[];
  /** The folder the command was run in. @default process.cwd() */
  readonly cwd?: string;
  /** Where output goes. @default process.stdout and process.stderr */
  readonly out?: Writer;
  readonly err?: Writer;
  /** Run every command on this root, never closing it (a server running a command for a CLI beside it). */
  readonly app?: Candor;
}

/** Where a command prints its result: one line (or block) of text on stdout. */
export type Out = (text: string) => void;

export function createCli(options: CliOptions = {}): Cli {
  let config: Config | undefined;
  let exitCode = 0;
  const settings = () => (config ??= options.app?.config ?? loadConfig());
  const out: Writer = options.out ?? ((text) => void process.stdout.write(text));
  const err: Writer = options.err ?? ((text) => void process.stderr.write(text));
  const cwd = options.cwd ?? process.cwd();
  return {
    settings,
    async withApp(purpose, run, runOptions = {}) {
      if (options.app) return run(options.app);
      const app = await buildOrHandOff(settings(), purpose, options.argv, cwd, { out, err });
      if (typeof app === 'number') return app;
      let failed = true;
      try {
        const code = await run(app);
        failed = false;
        return code;
      } finally {
        // A server stays open once it started. A command that failed (a server that could not start too) closes,
        // releasing the embedded data folder; the error on its way up is the one to tell, not a second from close.
        if (failed) await app.close().catch(() => undefined);
        else if (!runOptions.keepOpen) await app.close();
      }
    },
    print: (text) => out(`${text}\n`),
    progress: (message) => err(`candor: ${message}\n`),
    out,
    err,
    path: (typed) => resolve(cwd, typed),
    done(code) {
      exitCode = code;
    },
    get exitCode() {
      return exitCode;
    },
  };
}

const SERVERS = new Set(['serve', 'start']);

/** The root for this command, or (the folder held by a running server that takes commands) the exit code it ran with there. */
async function buildOrHandOff(
  config: Config,
  purpose: string,
  argv: readonly string[] | undefined,
  cwd: string,
  io: { out: Writer; err: Writer },
): Promise<Candor | number> {
  try {
    return await buildCandor(config, { purpose });
  } catch (error) {
    // A server is not started beside another: only the commands that use the store are handed over.
    const handable = error instanceof CandorError && error.code === 'store_locked' && !SERVERS.has(purpose);
    if (!handable || argv === undefined || config.store.databaseUrl) throw error;
    const code = await handOffToServer(config.store.dataDir, argv, cwd, io);
    if (code === null) throw error;
    return code;
  }
}
