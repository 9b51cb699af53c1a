/** Stable error codes; callers switch on `code`, people read `message`. */
export type ErrorCode =
  | 'config_invalid'
  | 'store_unavailable'
  | 'store_locked'
  | 'kb_not_found'
  | 'kb_empty'
  | 'input_invalid'
  | 'file_unreadable'
  | 'llm_unavailable'
  | 'llm_invalid_output';

/** The one base error: a stable code, an HTTP status where it applies, and the cause kept. */
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
