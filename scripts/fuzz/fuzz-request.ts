import type { FuzzSecrets } from './candor-under-test.js';
import type { Prng } from './prng.js';

/**
 * How a body is framed: a right Content-Length, chunked (well or badly), none,
 * or a Content-Length that lies (shorter, longer, not a number, twice, beside
 * Transfer-Encoding).
 */
export type Framing =
  | 'length'
  | 'chunked'
  | 'chunked-bad'
  | 'none'
  | 'length-short'
  | 'length-long'
  | 'length-nan'
  | 'length-negative'
  | 'length-dup'
  | 'length-and-chunked';

/** One request the fuzzer sends, described well enough to print and to replay. */
export interface FuzzRequest {
  /** The endpoint it is aimed at (for the summary), or `request-target` / `protocol` for junk below the routes. */
  readonly endpoint: string;
  /** The generator that made it: failures are grouped by it. */
  readonly kind: string;
  readonly method: string;
  readonly target: string;
  /** Header lines in order, sent as they are; duplicates allowed. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string | Buffer | undefined;
  /** @default 'length' when there is a body, else 'none' */
  readonly framing?: Framing;
  /** The whole request as bytes (protocol-level junk); the fields above then only describe it. */
  readonly raw?: Buffer;
  /** Leave out the Host header. */
  readonly noHost?: boolean;
  /** Leave out `Connection: close`. */
  readonly keepAlive?: boolean;
  /** Ends our side of the connection after the bytes (a body shorter than promised then ends). */
  readonly halfClose?: boolean;
  /** @default 'HTTP/1.1' */
  readonly version?: string;
  /** Send from this loopback address, so per-client limits (the console's sign-in throttle) see many clients. */
  readonly from?: string;
}

/** What every case maker gets: the seeded source and what it knows of the server. */
export interface FuzzContext {
  readonly rng: Prng;
  readonly port: number;
  readonly secrets: FuzzSecrets;
  readonly serviceUrl: string;
  readonly teamsAnonymous: boolean;
  /** A valid Bot Framework token for an activity's serviceUrl, when the fuzzer holds the server's signing key. */
  readonly channelToken?: ((serviceUrl: string, nowSeconds: number) => string) | undefined;
  /** A session cookie the console's login form gave, when it could be had. */
  readonly sessionCookie?: string | undefined;
  /** Unix seconds, for Slack timestamps. */
  readonly nowSeconds: () => number;
  /** A number unique to this run, for event ids. */
  readonly unique: () => number;
}

export type CaseMaker = (ctx: FuzzContext) => FuzzRequest;

/** The request's bytes as they go on the wire. */
export function serialise(req: FuzzRequest, port: number, rng: Prng): Buffer {
  if (req.raw) return req.raw;
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const framing = req.framing ?? (body ? 'length' : 'none');
  const lines = [`${req.method} ${req.target} ${req.version ?? 'HTTP/1.1'}`];
  if (!req.noHost) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (!req.keepAlive) lines.push('Connection: close');
  const n = body?.length ?? 0;
  let payload = body ?? Buffer.alloc(0);
  switch (framing) {
    case 'length':
      lines.push(`Content-Length: ${n}`);
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      payload = chunk(payload, rng, false);
      break;
    case 'chunked-bad':
      lines.push('Transfer-Encoding: chunked');
      payload = chunk(payload, rng, true);
      break;
    case 'length-short':
      lines.push(`Content-Length: ${Math.max(0, n - rng.between(1, Math.max(1, n)))}`);
      break;
    case 'length-long':
      lines.push(`Content-Length: ${n + rng.between(1, 1000)}`);
      break;
    case 'length-nan':
      lines.push(
        `Content-Length: ${rng.pick(['abc', '', ' ', '1.5', '0x10', '1e3', 'Infinity', `${n} ${n}`, `+${n}`, '99999999999999999999999'])}`,
      );
      break;
    case 'length-negative':
      lines.push(`Content-Length: -${n}`);
      break;
    case 'length-dup':
      lines.push(`Content-Length: ${n}`, `Content-Length: ${n + 1}`);
      break;
    case 'length-and-chunked':
      lines.push(`Content-Length: ${n}`, 'Transfer-Encoding: chunked');
      break;
    case 'none':
      break;
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), payload]);
}

function chunk(body: Buffer, rng: Prng, broken: boolean): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const size = Math.min(body.length - at, rng.between(1, 4096));
    const sizeText =
      broken && rng.chance(0.3) ? rng.pick(['zz', '-1', '', 'ffffffffffffffff', `${size.toString(16)};ext="`]) : size.toString(16);
    parts.push(Buffer.from(`${sizeText}\r\n`), body.subarray(at, at + size), Buffer.from('\r\n'));
    at += size;
  }
  parts.push(Buffer.from(broken ? rng.pick(['0\r\n', '0\r\nX-Trailer: \u0000\r\n\r\n', '1\r\n\r\n', 'x\r\n\r\n']) : '0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** Header values that break naive parsers: huge, control characters, unicode, empty. */
export function junkHeaderValue(rng: Prng): string {
  return rng.pick<() => string>([
    () => '',
    () => ' ',
    () => 'x'.repeat(rng.between(100, 20_000)),
    () => 'a\u0001b',
    () => '\u00e9\u00ff',
    () => '😀',
    () => '%E0%A4%A',
    () => 'a\tb',
    () => '"unterminated',
    () => ';;;,,,',
  ])();
}
