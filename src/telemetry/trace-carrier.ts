import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The active trace context as W3C headers (`traceparent`, `tracestate`), to
 * keep with work that runs later (an inbox row), so the work continues the trace
 * that received it, whichever replica or restart picks it up.
 */
export function traceCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Runs `fn` with the trace context a carrier holds as the parent (a fresh trace when it holds none). */
export function withTraceFrom<T>(carrier: Readonly<Record<string, unknown>> | undefined, fn: () => T): T {
  const headers = Object.fromEntries(Object.entries(carrier ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return context.with(propagation.extract(ROOT_CONTEXT, headers), fn);
}
