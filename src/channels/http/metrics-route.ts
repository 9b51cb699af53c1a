import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Route } from './api-routes.js';

/** GET /metrics: every Candor metric in the Prometheus text format (always on, beside the API). */
export function metricsRoute(handler: (request: IncomingMessage, response: ServerResponse) => void): Route {
  return async (req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/metrics') return false;
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' }).end();
      return true;
    }
    handler(req, res);
    return true;
  };
}
