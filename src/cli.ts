#!/usr/bin/env node
import { runProgram } from './cli/program.js';
import { CandorError, describeError } from './kernel/errors.js';

/** Runs the command line; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function main(argv: string[]): Promise<number> {
  return runProgram(argv);
}

/**
 * Runs the command line and sets the exit code (bin/candor.js calls this in the package); resolves when the
 * command has finished. An error is one line on stderr: a CandorError says what to do; anything else says
 * what failed and where, without a stack spread over the terminal.
 */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`candor: ${error instanceof CandorError ? error.message : unexpected(error)}\n`);
      process.exitCode = 1;
    },
  );
}

/** "failed: MESSAGE (at FILE:LINE)" for an error no command expected. */
function unexpected(error: unknown): string {
  const where = error instanceof Error ? /\n\s+at (?:.*\()?([^()\s]+:\d+):\d+\)?/.exec(error.stack ?? '')?.[1] : undefined;
  return `failed: ${describeError(error)}${where ? ` (at ${where})` : ''}`;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts')) void runCli(process.argv.slice(2));
