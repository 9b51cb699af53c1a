#!/usr/bin/env node
import { failureLines } from './cli/failure-lines.js';
import { runProgram } from './cli/program.js';

/** Runs the command line; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function main(argv: string[]): Promise<number> {
  return runProgram(argv);
}

/**
 * Runs the command line and sets the exit code (bin/candor.js calls this in the package); resolves when the
 * command has finished. An error is one line on stderr (src/cli/failure-lines.ts); with `--json`, a JSON line with
 * its code follows.
 */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      for (const line of failureLines(error, argv)) process.stderr.write(line);
      process.exitCode = 1;
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts')) void runCli(process.argv.slice(2));
