import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake server received, body parsed. */
export interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  readonly at: number;
}

export interface FakeResponse {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body: unknown;
  /** Answer after this many milliseconds (the call is recorded on arrival). */
  readonly delayMs?: number;
}

export type FakeHandler = (call: RecordedCall) => FakeResponse | undefined;

export interface FakeServer {
  readonly url: string;
  readonly calls: RecordedCall[];
  /** Handlers tried first, newest first; return undefined to fall through. */
  use(handler: FakeHandler): void;
  callsTo(path: string): RecordedCall[];
  close(): Promise<void>;
}

/** A recording HTTP server on 127.0.0.1, port 0: the wire-level fake for Slack's Web API and the Bot Framework connector. */
export async function startFakeServer(fallback: FakeHandler): Promise<FakeServer> {
  const calls: RecordedCall[] = [];
  const handlers: FakeHandler[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://x').pathname,
      headers: req.headers,
      body: parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type'] ?? ''),
      at: Date.now(),
    };
    calls.push(call);
    let response: FakeResponse | undefined;
    for (const handler of [...handlers].reverse()) {
      response = handler(call);
      if (response) break;
    }
    response ??= fallback(call) ?? { status: 404, body: { error: 'not_found' } };
    if (response.delayMs) await new Promise((r) => setTimeout(r, response.delayMs));
    const text = JSON.stringify(response.body);
    res.writeHead(response.status ?? 200, { 'content-type': 'application/json', ...response.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    use: (handler) => void handlers.push(handler),
    callsTo: (path) => calls.filter((c) => c.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseBody(text: string, type: string): Record<string, unknown> {
  if (text === '') return {};
  if (type.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    out[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return out;
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
