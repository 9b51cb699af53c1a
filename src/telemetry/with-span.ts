import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

const tracer = () => trace.getTracer('candor');

/** Runs `fn` inside a span that always ends, records exceptions and marks errors. */
export async function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T> | T): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
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
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
