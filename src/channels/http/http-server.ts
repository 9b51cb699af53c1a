import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { CandorError, describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { sendJson, type Route } from './api-routes.js';
import { acceptRequestTarget, requestPath } from './request-target.js';
import { traceRequest } from './server-span.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes. */
  stop(graceMs?: number): Promise<void>;
}

/** One HTTP server for every channel: each route says whether a request is its own. */
export async function startHttpServer(routes: readonly Route[], options: { host: string; port: number; log: Log }): Promise<RunningServer> {
  const server = createServer((req, res) => {
    // The one boundary: whatever a route throws or rejects with becomes a response and a log line, never an exit.
    handle(req, res)
      .catch((error: unknown) => failed(req, res, error))
      .catch(() => res.destroy());
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!acceptRequestTarget(req)) {
      return sendJson(res, 400, { error: { code: 'bad_request_target', message: 'The request target is not a path on this server.' } });
    }
    await traceRequest(
      req,
      res,
      async () => {
        try {
          for (const route of routes) if (await route(req, res)) return;
          sendJson(res, 404, { error: { code: 'not_found', message: `Nothing at ${req.method} ${requestPath(req)}.` } });
        } catch (error) {
          failed(req, res, error);
        }
      },
      // One line per request (probes and scrapes aside), in its trace; the path only: a query string can carry a token.
      ({ method, path, status, ms }) => options.log('info', 'request', { method, path, status, duration_ms: ms }),
    );
  };
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown): void => {
    const expected = error instanceof CandorError && error.status < 500;
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      // The client went away mid-request (a body cut short): nothing to answer, and not our failure.
      options.log('info', 'request aborted by the client', { method: req.method, path: safePath(req) });
      return void res.destroy();
    }
    if (!expected) {
      // The path only: a query string can carry a token or user text.
      options.log('error', 'request failed', { method: req.method, path: safePath(req), error: describeError(error) });
    }
    if (res.headersSent) return void res.end();
    if (expected) sendJson(res, error.status, { error: { code: error.code, message: error.message } });
    else sendJson(res, 500, { error: { code: 'internal', message: 'Something went wrong on our side; it has been logged.' } });
  };
  // CONNECT (a proxy's tunnel) bypasses the request handler; without this Node drops the connection unanswered.
  server.on('connect', (_req, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenFailure(error, options.host, options.port)));
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    stop: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** Why the server could not listen, in one line that says what to do (the errno stays as `cause`). */
function listenFailure(error: unknown, host: string, port: number): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new CandorError('port_in_use', `Port ${port} on ${host} is in use (another Candor or another program): stop it or set PORT.`, {
        cause: error,
      });
    case 'EACCES':
    case 'EPERM':
      return new CandorError(
        'port_unavailable',
        `Port ${port} on ${host} may not be opened by this user (ports below 1024 need privileges): set PORT to 1024 or above.`,
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CandorError(
        'port_unavailable',
        `${host} is not an address of this machine: set HOST (127.0.0.1, or 0.0.0.0 for every interface).`,
        {
          cause: error,
        },
      );
    default:
      return error;
  }
}

function safePath(req: IncomingMessage): string {
  try {
    return requestPath(req);
  } catch {
    return '(unparseable target)';
  }
}
