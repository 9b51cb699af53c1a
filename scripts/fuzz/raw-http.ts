import { connect } from 'node:net';

/**
 * How one request ended: a response (complete, or its head at least when the
 * server closed), the connection closed or reset with no response, nothing
 * within the deadline (a hang), or nobody listening (the server is gone).
 */
export type Outcome = 'response' | 'closed' | 'reset' | 'hang' | 'refused';

export interface RawResult {
  readonly outcome: Outcome;
  /** The final status (1xx interim responses are skipped). */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly ms: number;
  readonly error?: string;
}

export interface RawOptions {
  /** The request is over when it has no complete response after this long. @default 5000 */
  readonly timeoutMs?: number;
  /** A HEAD request: the response has no body whatever its headers say. */
  readonly head?: boolean;
  /** Ends our side after writing (for bodies shorter than their Content-Length). */
  readonly halfClose?: boolean;
  /** Writes the bytes in pieces cut at these offsets, a tick apart, so the server parses partial input. */
  readonly cuts?: readonly number[];
  /** The loopback address to send from (127.x.y.z): the server then sees another client. @default the system's choice */
  readonly localAddress?: string | undefined;
}

/**
 * Sends `bytes` as they are over a fresh TCP connection to 127.0.0.1:`port`
 * (nothing in between normalises the request line or headers) and reads one
 * HTTP/1.x response.
 */
export function sendRaw(port: number, bytes: Buffer, options: RawOptions = {}): Promise<RawResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const started = performance.now();
  return new Promise((resolve) => {
    const from = options.localAddress ? { localAddress: options.localAddress } : {};
    const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true, ...from });
    let received = Buffer.alloc(0);
    let error: NodeJS.ErrnoException | undefined;
    let done = false;
    const finish = (result: Omit<RawResult, 'ms'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...result, ms: Math.round(performance.now() - started) });
    };
    const timer = setTimeout(() => {
      const parsed = parseResponse(received, options.head === true);
      finish({ outcome: 'hang', ...(parsed ? { status: parsed.status, headers: parsed.headers } : {}), error: 'no complete response' });
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseResponse(received, options.head === true);
      if (parsed?.complete) finish({ outcome: 'response', status: parsed.status, headers: parsed.headers, body: parsed.body });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e;
      if (e.code === 'ECONNREFUSED') finish({ outcome: 'refused', error: e.code });
    });
    // The server ending its side ends the response too (we keep ours open only to finish writing).
    socket.on('end', () => settle());
    socket.on('close', () => settle());
    const settle = () => {
      const parsed = parseResponse(received, options.head === true);
      if (parsed) return finish({ outcome: 'response', status: parsed.status, headers: parsed.headers, body: parsed.body });
      const reset = error !== undefined && ['ECONNRESET', 'EPIPE'].includes(error.code ?? '');
      finish({ outcome: reset ? 'reset' : 'closed', ...(error ? { error: error.code ?? error.message } : {}) });
    };
    socket.once('connect', () => void write(socket, bytes, options));
  });
}

async function write(socket: ReturnType<typeof connect>, bytes: Buffer, options: RawOptions): Promise<void> {
  const cuts = [...(options.cuts ?? []).filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (socket.destroyed) return;
    socket.write(bytes.subarray(from, cut));
    from = cut;
    if (cut < bytes.length) await new Promise((r) => setTimeout(r, 1));
  }
  if (options.halfClose && !socket.destroyed) socket.end();
}

interface Parsed {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly complete: boolean;
}

/** The final response in `data` so far; null until a status line and headers have arrived. */
export function parseResponse(data: Buffer, head: boolean): Parsed | null {
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end === -1) return null;
    const lines = data.subarray(at, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '');
    if (!match) return null;
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    at = end + 4;
    if (status >= 100 && status < 200 && status !== 101) continue;
    const rest = data.subarray(at);
    if (head || status === 204 || status === 304 || status === 101) return { status, headers, body: Buffer.alloc(0), complete: true };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return { status, headers, ...dechunk(rest) };
    const length = headers['content-length'];
    if (length !== undefined && /^\d+$/.test(length)) {
      const n = Number(length);
      return { status, headers, body: rest.subarray(0, n), complete: rest.length >= n };
    }
    return { status, headers, body: rest, complete: false };
  }
}

function dechunk(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) return { body: Buffer.concat(parts), complete: false };
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return { body: Buffer.concat(parts), complete: false };
    if (size === 0) return { body: Buffer.concat(parts), complete: data.indexOf('\r\n\r\n', eol) !== -1 };
    if (data.length < eol + 2 + size + 2) return { body: Buffer.concat(parts), complete: false };
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
