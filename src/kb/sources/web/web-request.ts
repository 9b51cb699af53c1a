import type { HostPace } from './host-pace.js';

/** How the connector speaks HTTP: as whom, how long it waits, how often it asks one host. */
export interface WebClient {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly pace: HostPace;
}

/** A response (its body still to be read or cancelled), or why there is none, in one line. */
export type Reply =
  | {
      readonly ok: true;
      readonly response: Response;
      /** Why reading the body failed, in one line (the request's timeout also bounds the body). */
      readonly explain: (error: unknown) => string;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * One GET, redirects not followed (the caller decides where they may go), in the host's turn and within the
 * request timeout, which also bounds reading the body. A connection reset before any answer is asked again once
 * (a kept-alive connection the server was closing). Never throws: a refused connection, a DNS failure, a reset, a
 * timeout become a reason.
 */
export async function getOnce(client: WebClient, url: URL, headers: Readonly<Record<string, string>>, signal: AbortSignal): Promise<Reply> {
  if (!(await client.pace.turn(url.host, signal))) return { ok: false, reason: 'cancelled' };
  const timeout = AbortSignal.timeout(client.timeoutMs);
  const explain = (error: unknown): string => {
    if (signal.aborted) return 'cancelled';
    if (timeout.aborted) return `no complete answer from ${url.host} within ${client.timeoutMs} ms (the request timeout)`;
    return networkFailure(error, url);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, {
        headers: { 'user-agent': client.userAgent, ...headers },
        redirect: 'manual',
        signal: AbortSignal.any([signal, timeout]),
      });
      return { ok: true, response, explain };
    } catch (error) {
      // A kept-alive connection the server closed as it was reused resets before any answer: a GET is asked again, once.
      if (attempt === 1 && !signal.aborted && !timeout.aborted && RESET.has(errorCode(causeOf(error)) ?? '')) continue;
      return { ok: false, reason: explain(error) };
    }
  }
}

const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause instanceof Error ? error.cause : error;
}

/** Lets go of a response whose body is not wanted, so that its connection is freed. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

const BY_CODE: Readonly<Record<string, (url: URL) => string>> = {
  ECONNREFUSED: (url) => `connection to ${url.host} refused`,
  ECONNRESET: (url) => `connection to ${url.host} reset`,
  EPIPE: (url) => `connection to ${url.host} reset`,
  UND_ERR_SOCKET: (url) => `${url.host} closed the connection`,
  ENOTFOUND: (url) => `host ${url.hostname} not found (DNS)`,
  EAI_AGAIN: (url) => `looking up host ${url.hostname} failed (DNS, temporary)`,
  EHOSTUNREACH: (url) => `host ${url.hostname} unreachable`,
  ENETUNREACH: (url) => `network of ${url.hostname} unreachable`,
  ETIMEDOUT: (url) => `connecting to ${url.host} timed out`,
  UND_ERR_CONNECT_TIMEOUT: (url) => `connecting to ${url.host} timed out`,
};

/** A failed fetch in one line: what happened to the connection, from the error's cause (undici's `fetch failed` says nothing). */
export function networkFailure(error: unknown, url: URL): string {
  const cause = causeOf(error);
  const code = errorCode(cause);
  const known = code === undefined ? undefined : BY_CODE[code];
  if (known) return known(url);
  const message = cause instanceof Error ? cause.message : String(cause);
  if (code !== undefined && /CERT|TLS|SSL|SIGNATURE/.test(code)) return `TLS certificate of ${url.host} not accepted (${message})`;
  return `could not reach ${url.host}: ${message || code || 'unknown error'}`;
}

/** The `code` of a system or undici error, or of the first of an AggregateError (one per address tried). */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const first = (error as { errors?: unknown[] }).errors?.[0];
  return first === undefined ? undefined : errorCode(first);
}
