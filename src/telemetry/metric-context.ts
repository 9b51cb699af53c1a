import { context, createContextKey } from '@opentelemetry/api';

const KB = createContextKey('candor.metrics.kb');

/** Runs `fn` with `kb` as the knowledge base of the metrics recorded inside it (model cost, from deep in the LLM client). */
export function withMetricKb<T>(kb: string, fn: () => T): T {
  return context.with(context.active().setValue(KB, kb), fn);
}

/** `{ kb }` for a metric recorded inside withMetricKb, else nothing (a judge run, a follow-up rewrite). */
export function metricKb(): { kb?: string } {
  const kb = context.active().getValue(KB);
  return typeof kb === 'string' ? { kb } : {};
}
