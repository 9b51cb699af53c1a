import { CandorError, describeError } from '../kernel/errors.js';

/**
 * What a failed command says on stderr: one line (a CandorError says what to do; anything else what failed and
 * where, without a stack spread over the terminal) and, with `--json`, a JSON line with its code after it.
 */
export function failureLines(error: unknown, argv: readonly string[]): string[] {
  const message = error instanceof CandorError ? error.message : unexpected(error);
  const lines = [`candor: ${message}\n`];
  if (asksForJson(argv)) lines.push(`${JSON.stringify(errorObject(error, message))}\n`);
  return lines;
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
