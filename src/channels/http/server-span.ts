import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

import { SCOPE } from '../../telemetry/attributes.js';
import { requestPath } from './request-target.js';

/** Probes and scrapes: every few seconds from every replica, and never part of a user's trace. */
const UNTRACED = new Set(['/healthz', '/metrics']);

/** How a traced request ended, told inside its span (so a log line carries its trace id). */
export type RequestDone = (outcome: {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
}) => void;

/**
 * Runs one request inside an HTTP SERVER span (OpenTelemetry HTTP conventions),
 * continuing the caller's trace when the request carries a W3C `traceparent`:
 * an ask made through the API is then a child of the caller's span.
 */
export async function traceRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => Promise<void>,
  done?: RequestDone,
): Promise<void> {
  const path = requestPath(req);
  if (UNTRACED.has(path)) return handle();
  const started = performance.now();
  const method = knownMethod(req.method);
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = trace.getTracer(SCOPE.candor).startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': path,
        'url.scheme': 'http',
        'network.protocol.version': req.httpVersion,
        ...(req.headers['user-agent'] ? { 'user_agent.original': req.headers['user-agent'].slice(0, 256) } : {}),
      },
    },
    parent,
  );
  res.once('close', () => {
    const status = res.statusCode;
    span.setAttribute('http.response.status_code', status);
    // A route is known when something answered; ids are folded so the name stays low-cardinality.
    if (status !== 404) {
      const route = path.replace(/\/\d+(?=\/|$)/g, '/{id}');
      span.setAttribute('http.route', route);
      span.updateName(`${method} ${route}`);
    }
    if (status >= 500) {
      span.setAttribute('error.type', String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    if (!res.writableFinished) span.setAttribute('error.type', 'response_incomplete');
    if (done) context.with(trace.setSpan(parent, span), () => done({ method, path, status, ms: Math.round(performance.now() - started) }));
    span.end();
  });
  return context.with(trace.setSpan(parent, span), handle);
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** Unknown methods are `_OTHER`, as the conventions say (a client must not mint span names). */
function knownMethod(method: string | undefined): string {
  return method && METHODS.has(method) ? method : '_OTHER';
}
