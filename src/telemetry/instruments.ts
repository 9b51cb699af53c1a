import { metrics, type Counter, type Histogram } from '@opentelemetry/api';

import { METRIC, SCOPE } from './attributes.js';

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

const meter = () => metrics.getMeter(SCOPE.candor);

/** GenAI semantic conventions' advice: model calls from 10 ms to ~80 s, in seconds. */
const MODEL_CALL_SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** GenAI semantic conventions' advice for token counts (powers of 4). */
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/** An ask takes a millisecond (extractive, cached index) to tens of seconds (a slow model): 1 ms … 30 s, in seconds. */
const ASK_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** An expert answers in minutes to weeks: 1 min … 4 weeks, in seconds. */
const EXPERT_SECONDS = [60, 300, 900, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400, 14 * 86400, 28 * 86400];

export const instruments = {
  asks: lazy<Counter>(() =>
    meter().createCounter(METRIC.asks, { unit: '{ask}', description: 'Questions asked, by kb, decision, reason, confidence and channel' }),
  ),
  processErrors: lazy<Counter>(() =>
    meter().createCounter(METRIC.processErrors, {
      unit: '{error}',
      description: 'Errors no handler caught (unhandled rejections, uncaught exceptions), by kind',
    }),
  ),
  askDuration: lazy<Histogram>(() =>
    meter().createHistogram(METRIC.askDuration, {
      unit: 's',
      description: 'Time to decide an ask, by kb, decision and channel',
      advice: { explicitBucketBoundaries: ASK_SECONDS },
    }),
  ),
  sourceSyncs: lazy<Counter>(() =>
    meter().createCounter(METRIC.sourceSyncs, {
      unit: '{sync}',
      description: 'Source syncs run, by kb and outcome (changed, unchanged, failed)',
    }),
  ),
  feedback: lazy<Counter>(() =>
    meter().createCounter(METRIC.feedback, {
      unit: '{feedback}',
      description: 'Asker feedback on replies, by kind, kb, decision and channel',
    }),
  ),
  expertRequests: lazy<Counter>(() =>
    meter().createCounter(METRIC.expertRequests, {
      unit: '{request}',
      description: 'Questions routed to experts (asker presses and automatic routing), by kb, via and outcome',
    }),
  ),
  expertAnswerTime: lazy<Histogram>(() =>
    meter().createHistogram(METRIC.expertAnswerTime, {
      unit: 's',
      description: 'Time from a gap being asked of experts to their answer (or "not for the KB"), by kb and outcome',
      advice: { explicitBucketBoundaries: EXPERT_SECONDS },
    }),
  ),
  llmCallsAvoided: lazy<Counter>(() =>
    meter().createCounter(METRIC.llmCallsAvoided, {
      unit: '{call}',
      description: 'Questions the hard gate refused before any model call, by kb and channel',
    }),
  ),
  llmCost: lazy<Counter>(() =>
    meter().createCounter(METRIC.llmCost, {
      unit: 'USD',
      description: 'Cost of model calls from the tokens the server reported and the price table (0 for a model without a price)',
    }),
  ),
  inboxRetries: lazy<Counter>(() =>
    meter().createCounter(METRIC.inboxRetries, {
      unit: '{try}',
      description: 'Chat questions tried again (after a failed try or a lost lease), by channel',
    }),
  ),
  inboxRateLimitWait: lazy<Counter>(() =>
    meter().createCounter(METRIC.inboxRateLimitWait, {
      unit: 's',
      description: "Time chat replies waited on the chat service's rate limits (its Retry-After), by channel",
    }),
  ),
  tokenUsage: lazy<Histogram>(() =>
    meter().createHistogram(METRIC.tokenUsage, {
      unit: '{token}',
      description: 'Tokens used per model call, by type',
      advice: { explicitBucketBoundaries: TOKENS },
    }),
  ),
  operationDuration: lazy<Histogram>(() =>
    meter().createHistogram(METRIC.operationDuration, {
      unit: 's',
      description: 'Duration of model calls',
      advice: { explicitBucketBoundaries: MODEL_CALL_SECONDS },
    }),
  ),
};
