import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

import { describeError } from '../kernel/errors.js';
import { SCOPE } from './attributes.js';

const tracer = () => trace.getTracer(SCOPE.candor);

/** Runs `fn` inside a span that always ends, records exceptions and marks errors. */
export async function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T> | T): Promise<T> {
  return withSpanOfKind(name, SpanKind.INTERNAL, attributes, fn);
}

/** A call to a service outside the process (a model endpoint): a CLIENT span, as the GenAI conventions ask. */
export async function withClientSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T> | T): Promise<T> {
  return withSpanOfKind(name, SpanKind.CLIENT, attributes, fn);
}

async function withSpanOfKind<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span: Span) => Promise<T> | T): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      throw markFailed(span, error);
    } finally {
      span.end();
    }
  });
}

/** Synchronous variant for pure steps (gate layers). */
export function withSpanSync<T>(name: string, attributes: Attributes, fn: (span: Span) => T): T {
  return tracer().startActiveSpan(name, { attributes }, (span) => {
    try {
      return fn(span);
    } catch (error) {
      throw markFailed(span, error);
    } finally {
      span.end();
    }
  });
}

/** Records the error on the span and marks it failed; returns the error for rethrowing. */
function markFailed(span: Span, error: unknown): unknown {
  span.setStatus({ code: SpanStatusCode.ERROR, message: recordError(span, error) });
  return error;
}

/**
 * Records an exception event as described for telemetry (a database driver's message would carry user
 * text, see describeError) and returns that description. The stack stays in the process.
 */
export function recordError(span: Span, error: unknown): string {
  const message = describeError(error);
  span.recordException({ name: error instanceof Error ? error.name : 'Error', message });
  return message;
}
