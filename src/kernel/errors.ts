/**
 * Stable error codes; callers switch on `code`, people read `message`. Each is specific enough to act on
 * (fix a file, a flag, a setting; ask to be listed; come back later) and is in the table of
 * docs/commands.md#errors with its HTTP status and what to do (a test keeps the two the same).
 */
export const ERROR_CODES = [
  'config_invalid',
  'llm_not_configured',
  'store_unavailable',
  'store_locked',
  'port_in_use',
  'port_unavailable',
  'kb_not_found',
  'kb_warming',
  'kb_empty',
  'not_found',
  'not_permitted',
  'conflict',
  'busy',
  'input_invalid',
  'option_invalid',
  'file_not_found',
  'file_unreadable',
  'file_too_large',
  'file_malformed',
  'file_unwritable',
  'too_little_data',
  'llm_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one base error: a stable code, an HTTP status where it applies, and the cause kept. `retryable`: the same
 * request may succeed later unchanged (a KB still loading, a store reopening, a job already running); the HTTP API
 * answers it with 503 and Retry-After, the inbox tries the question again, `--json` tells a script.
 */
export class CandorError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; status?: number; retryable?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CandorError';
    this.code = code;
    this.status = options.status ?? 500;
    this.retryable = options.retryable ?? false;
  }
}

/** A file that could not be read: missing (file_not_found) or there but not readable (file_unreadable). */
export function fileReadError(path: string, cause: unknown): CandorError {
  const errno = (cause as NodeJS.ErrnoException).code;
  const code = errno === 'ENOENT' || errno === 'ENOTDIR' ? 'file_not_found' : 'file_unreadable';
  return new CandorError(code, `Cannot read ${path}: ${(cause as Error).message}`, { cause });
}

/**
 * What a log line, a span or a stored note may say about an error. A database
 * driver's message is never passed on: drizzle's carries the failed query's
 * parameters (a question, a user hash, a conversation reference), and
 * PostgreSQL's can quote a rejected value. A database error is told by its
 * SQLSTATE and the statement's verb and table instead.
 */
export function describeError(error: unknown): string {
  const query = queryFailure(error);
  if (query) return query;
  if (!(error instanceof Error)) return typeof error === 'string' ? withoutParams(error) : 'unknown error';
  const code = sqlState(error);
  if (code) return `database error ${code}${CONDITIONS[code] ? ` (${CONDITIONS[code]})` : ''}`;
  const cause = error.cause === undefined ? null : queryFailure(error.cause);
  return cause ? `${withoutParams(error.message)}: ${cause}` : withoutParams(error.message);
}

/** A drizzle query error, described by its SQLSTATE and operation; null for any other error. */
function queryFailure(error: unknown): string | null {
  if (!(error instanceof Error) || !('query' in error) || typeof error.query !== 'string' || !('params' in error)) return null;
  const operation = /^\s*(select|insert into|update|delete from|with)\s+("?[\w.]+"?)?/i.exec(error.query);
  const what = operation ? `${operation[1]!.toLowerCase()}${operation[2] ? ` ${operation[2].replaceAll('"', '')}` : ''}` : 'query';
  const cause = error.cause instanceof Error ? error.cause : null;
  const code = cause ? (sqlState(cause) ?? (cause as NodeJS.ErrnoException).code) : undefined;
  return `database error${code ? ` ${code}` : ''}${code && CONDITIONS[code] ? ` (${CONDITIONS[code]})` : ''} in ${what}`;
}

function sqlState(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error ? code : undefined;
}

/** Drizzle's message shape, cut where the parameters start (for messages that were copied into another error). */
function withoutParams(message: string): string {
  const at = message.indexOf('Failed query:');
  return at === -1 ? message : `${message.slice(0, at)}database query failed`;
}

/** SQLSTATE conditions an operator meets, by name (PostgreSQL appendix A). */
const CONDITIONS: Readonly<Record<string, string>> = {
  '08000': 'connection_exception',
  '08003': 'connection_does_not_exist',
  '08006': 'connection_failure',
  '23505': 'unique_violation',
  '25006': 'read_only_sql_transaction',
  '40001': 'serialization_failure',
  '40P01': 'deadlock_detected',
  '53100': 'disk_full',
  '53200': 'out_of_memory',
  '53300': 'too_many_connections',
  '57014': 'query_canceled',
  '57P01': 'admin_shutdown',
  '57P03': 'cannot_connect_now',
  '58030': 'io_error',
  XX000: 'internal_error',
};
