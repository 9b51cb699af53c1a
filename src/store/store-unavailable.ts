import { CandorError } from '../kernel/errors.js';

/** Socket errors of a PostgreSQL server that is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that cannot serve now (PostgreSQL appendix A): connection exceptions (class 08),
 * shutting down or starting up (57P01–57P03), too many connections, a disk that is full or read-only.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|53100|25006)$/;

/** What node-postgres throws without a code when its connection ends or never comes. */
const POOL_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
];

/**
 * Whether `error` (or an error it wraps, as drizzle wraps the driver's) says the database cannot be reached or
 * cannot serve now, rather than that a request was wrong: the embedded store closed or stopped after a failed
 * write (store_unavailable), or a PostgreSQL server down, restarting or out of room. HTTP answers it with 503.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof CandorError) return e.code === 'store_unavailable';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || ('severity' in e && UNAVAILABLE_STATES.test(code)))) return true;
    if (POOL_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m))) return true;
  }
  return false;
}
