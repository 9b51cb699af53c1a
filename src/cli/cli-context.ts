import { buildCandor, type Candor } from '../app/main.js';
import { loadConfig, type Config } from '../config.js';

/** Where a command prints its result: one line (or block) of text on stdout. */
export type Out = (text: string) => void;

/**
 * What every command is given: the settings (read when a command first needs
 * them, so help and usage errors read none), the composition root for the
 * command's run, and where its output goes.
 */
export interface Cli {
  /** The settings, read from the environment once; a bad setting throws its ConfigError here. */
  settings(): Config;
  /** Builds the root, runs `run`, closes the root (unless keepOpen and `run` succeeded: a server closes itself on a signal). */
  withApp(purpose: string, run: (app: Candor) => Promise<number>, options?: { keepOpen?: boolean }): Promise<number>;
  /** One line of results on stdout. */
  print(text: string): void;
  /** One line of progress or explanation on stderr, as `candor: …`. */
  progress(message: string): void;
  /** The command's exit code: 0 done, 1 failed. */
  done(code: number): void;
  readonly exitCode: number;
}

export function createCli(): Cli {
  let config: Config | undefined;
  let exitCode = 0;
  const settings = () => (config ??= loadConfig());
  return {
    settings,
    async withApp(purpose, run, options = {}) {
      const app = await buildCandor(settings(), { purpose });
      let failed = true;
      try {
        const code = await run(app);
        failed = false;
        return code;
      } finally {
        // A server stays open once it started. A command that failed (a server that could not start too) closes,
        // releasing the embedded data folder; the error on its way up is the one to tell, not a second from close.
        if (failed) await app.close().catch(() => undefined);
        else if (!options.keepOpen) await app.close();
      }
    },
    print: (text) => void process.stdout.write(`${text}\n`),
    progress: (message) => void process.stderr.write(`candor: ${message}\n`),
    done(code) {
      exitCode = code;
    },
    get exitCode() {
      return exitCode;
    },
  };
}
