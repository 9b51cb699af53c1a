import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Route } from './api-routes.js';
import { bearerAllowed } from './bearer-token.js';
import { requestPath } from './request-target.js';

/**
 * GET /metrics: every Candor metric in the Prometheus text format (always on, beside the API); with a
 * token (CANDOR_METRICS_TOKEN), only for `Authorization: Bearer <token>` (Prometheus: `authorization.credentials`).
 */
export function metricsRoute(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: { token?: string | undefined } = {},
): Route {
  return async (req, res) => {
    if (requestPath(req) !== '/metrics') return false;
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' }).end();
      return true;
    }
    if (!bearerAllowed(req, res, options.token, 'candor metrics')) return true;
    handler(req, res);
    return true;
  };
}
