import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MALFORMED_TARGETS as FUZZ_TARGETS } from '../../../scripts/fuzz/target-cases.js';
import { apiRoutes, type Route } from '../../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import { parseRequestTarget } from '../../../src/channels/http/request-target.js';

/** The fuzzer's malformed targets (each once took the process down), and two more shapes. */
const MALFORMED_TARGETS = [...FUZZ_TARGETS, '/%zz', 'x'];

/** One request over a raw socket, so that no client library normalises the target; resolves with the status. */
function rawStatus(url: string, requestLine: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`));
    let head = '';
    socket.on('data', (chunk) => (head += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer to ${requestLine}`)));
  });
}

describe('the request boundary', () => {
  const logs: { message: string; fields: Record<string, unknown> }[] = [];
  let server: RunningServer;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    const throwing: Route = async (req) => {
      if (req.url?.startsWith('/throws')) throw new TypeError('a bug in a route');
      return false;
    };
    const late: Route = (req) => {
      if (!req.url?.startsWith('/rejects')) return Promise.resolve(false);
      return new Promise((_, reject) => setTimeout(() => reject(new RangeError('rejected later')), 5));
    };
    server = await startHttpServer(
      [apiRoutes({ ask: () => Promise.reject(new Error('not asked here')), maxBodyBytes: 1024, health: [] }), throwing, late],
      { host: '127.0.0.1', port: 0, log: (_level, message, fields = {}) => void logs.push({ message, fields }) },
    );
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await server?.stop(500);
  });

  it('answers each malformed request target with 400, for any method, and keeps serving', async () => {
    for (const target of MALFORMED_TARGETS) {
      for (const method of ['GET', 'POST'])
        expect(await rawStatus(server.url, `${method} ${target} HTTP/1.1`), `${method} ${target}`).toBe(400);
    }
    expect(await rawStatus(server.url, 'CONNECT 127.0.0.1:22 HTTP/1.1')).toBe(405);
    expect(await rawStatus(server.url, 'GET /healthz HTTP/1.1')).toBe(200);
    expect(await rawStatus(server.url, `GET http://127.0.0.1/healthz HTTP/1.1`)).toBe(200); // absolute-form is a real form
    expect(unhandled).toEqual([]);
  });

  it('turns an error a route throws or rejects with into a 500 and one log line with the path only', async () => {
    expect((await fetch(`${server.url}/throws?token=abc`)).status).toBe(500);
    expect((await fetch(`${server.url}/rejects`)).status).toBe(500);
    expect(logs.filter((l) => l.message === 'request failed').map((l) => l.fields)).toEqual([
      { method: 'GET', path: '/throws', error: 'a bug in a route' },
      { method: 'GET', path: '/rejects', error: 'rejected later' },
    ]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(unhandled).toEqual([]);
  });

  it('parses only origin-form and absolute-form targets', () => {
    expect(parseRequestTarget('/api/ask?x=1')?.pathname).toBe('/api/ask');
    expect(parseRequestTarget('http://h:1/metrics')?.pathname).toBe('/metrics');
    for (const target of MALFORMED_TARGETS) expect(parseRequestTarget(target), target).toBeNull();
  });
});
