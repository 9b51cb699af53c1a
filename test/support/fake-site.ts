import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake site received: its path with query, headers, and when it arrived. */
export interface SiteRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly at: number;
}

export type SiteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A web site on 127.0.0.1, port 0, the wire-level fake of an intranet: routes by path (query included), 404 elsewhere. */
export interface FakeSite {
  readonly origin: string;
  readonly requests: SiteRequest[];
  /** Answers `path` (with its query, if any) with `handler`. */
  route(path: string, handler: SiteHandler): void;
  /** Answers `path` with `body`, status 200 unless `headers[':status']` says otherwise. */
  serve(path: string, body: string | Buffer, headers?: Record<string, string>): void;
  /** Answers `path` with a redirect to `location`. */
  redirect(path: string, location: string, status?: number): void;
  requestsTo(path: string): SiteRequest[];
  close(): Promise<void>;
}

export async function startFakeSite(): Promise<FakeSite> {
  const requests: SiteRequest[] = [];
  const routes = new Map<string, SiteHandler>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers, at: Date.now() });
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const route = (path: string, handler: SiteHandler): void => void routes.set(path, handler);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    route,
    serve: (path, body, headers = {}) =>
      route(path, (_req, res) => {
        const { ':status': status = '200', ...rest } = headers;
        res.writeHead(Number(status), { 'content-type': 'text/html; charset=utf-8', ...rest }).end(body);
      }),
    redirect: (path, location, status = 302) => route(path, (_req, res) => res.writeHead(status, { location }).end()),
    requestsTo: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
