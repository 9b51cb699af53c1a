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
 * what failed and where, without a stack spread over the terminal. With `--json`, a JSON line with its code follows.
 */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const message = error instanceof CandorError ? error.message : unexpected(error);
      process.stderr.write(`candor: ${message}\n`);
      if (asksForJson(argv)) process.stderr.write(`${JSON.stringify(errorObject(error, message))}\n`);
      process.exitCode = 1;
    },
  );
}

/** `--json` among the options (not after `--`, where it would be a question's word). */
function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * A failure as a script reads it (`--json`): the HTTP API's error body, and whether the same command may succeed
 * if run again unchanged. The last line on stderr: stdout keeps only what the command itself printed.
 */
function errorObject(error: unknown, message: string): { error: { code: string; message: string; retryable: boolean } } {
  if (error instanceof CandorError) return { error: { code: error.code, message, retryable: error.retryable } };
  return { error: { code: 'internal', message, retryable: false } };
}

/** "failed: MESSAGE (at FILE:LINE)" for an error no command expected. */
function unexpected(error: unknown): string {
  const where = error instanceof Error ? /\n\s+at (?:.*\()?([^()\s]+:\d+):\d+\)?/.exec(error.stack ?? '')?.[1] : undefined;
  return `failed: ${describeError(error)}${where ? ` (at ${where})` : ''}`;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts')) void runCli(process.argv.slice(2));
