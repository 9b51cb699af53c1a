import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CandorError } from '../../errors.js';
import type { Log } from '../../log.js';
import { sendJson, type Route } from './api-routes.js';
import { traceRequest } from './server-span.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes. */
  stop(graceMs?: number): Promise<void>;
}

/** One HTTP server for every channel: each route says whether a request is its own. */
export async function startHttpServer(routes: readonly Route[], options: { host: string; port: number; log: Log }): Promise<RunningServer> {
  const server = createServer(
    (req, res) =>
      void traceRequest(req, res, async () => {
        try {
          for (const route of routes) if (await route(req, res)) return;
          sendJson(res, 404, {
            error: { code: 'not_found', message: `Nothing at ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}.` },
          });
        } catch (error) {
          if (res.headersSent) return void res.end();
          if (error instanceof CandorError && error.status < 500) {
            sendJson(res, error.status, { error: { code: error.code, message: error.message } });
          } else {
            options.log('error', 'request failed', { path: req.url, error: (error as Error).message });
            sendJson(res, 500, { error: { code: 'internal', message: 'Something went wrong on our side; it has been logged.' } });
          }
        }
      }),
  );
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
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
