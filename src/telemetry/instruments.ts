import { metrics, type Counter, type Histogram } from '@opentelemetry/api';

/**
 * Metric instruments, created on first use. The metrics API has no proxy
 * provider: an instrument made before the SDK starts stays a no-op forever,
 * so none may be made at import time.
 */
function lazy<T>(make: () => T): () => T {
  let made: { provider: unknown; value: T } | undefined;
  return () => {
    const provider = metrics.getMeterProvider();
    if (!made || made.provider !== provider) made = { provider, value: make() };
    return made.value;
  };
}

const meter = () => metrics.getMeter('candor');

export const instruments = {
  asks: lazy<Counter>(() => meter().createCounter('candor.asks', { description: 'Questions asked, by decision, reason and channel' })),
  askDuration: lazy<Histogram>(() => meter().createHistogram('candor.ask.duration', { unit: 'ms', description: 'Time to decide an ask' })),
  llmCallsAvoided: lazy<Counter>(() =>
    meter().createCounter('candor.llm.calls_avoided', { description: 'Questions the hard gate refused before any model call' }),
  ),
  tokenUsage: lazy<Histogram>(() =>
    meter().createHistogram('gen_ai.client.token.usage', { unit: '{token}', description: 'Tokens used per model call, by type' }),
  ),
  operationDuration: lazy<Histogram>(() =>
    meter().createHistogram('gen_ai.client.operation.duration', { unit: 's', description: 'Duration of model calls' }),
  ),
};
