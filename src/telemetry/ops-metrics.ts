import { metrics, type Attributes, type BatchObservableCallback, type BatchObservableResult, type Observable } from '@opentelemetry/api';

import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { METRIC, SCOPE } from './attributes.js';
import { cachedRead } from './cached-read.js';
import { readOpsCounts } from './ops-counts.js';

export interface OpsMetricsDeps {
  readonly db: Db;
  readonly log: Log;
  /** The chat channels this server runs: their inbox gauges read 0 rather than nothing while their inbox is empty. */
  readonly channels?: readonly string[];
  readonly now?: () => Date;
  /** A scrape waits no longer for the store; past it, these metrics are left out of that scrape. @default 5000 */
  readonly timeoutMs?: number;
  /** Scrapes within this long of a read reuse it (several Prometheus servers, a dashboard refresh). @default 10000 */
  readonly cacheMs?: number;
}

/**
 * Observable metrics read from the shared store, so that every replica reports the same numbers (chart them
 * with max, never sum): `candor.inbox.pending` and `candor.inbox.oldest_age` {channel},
 * `candor.deliveries.failed` {channel}, `candor.review.backlog` {task, kb} and `candor.labels` {task, source}.
 * One read serves every scrape for `cacheMs`; a failed or slow read observes nothing and logs a warning, and
 * never fails the scrape. A series that was observed and is now empty reads 0 (the exporter would otherwise
 * repeat its last value for ever).
 */
export function startOpsMetrics(deps: OpsMetricsDeps): { stop(): void } {
  const meter = metrics.getMeter(SCOPE.candor);
  const pending = meter.createObservableGauge(METRIC.inboxPending, {
    unit: '{question}',
    description: 'Chat questions stored and not yet answered (waiting, being answered, or waiting to be tried again), by channel',
  });
  const oldestAge = meter.createObservableGauge(METRIC.inboxOldestAge, {
    unit: 's',
    description: 'Age of the oldest chat question not yet answered, by channel (0 when none waits)',
  });
  const failed = meter.createObservableCounter(METRIC.deliveriesFailed, {
    unit: '{question}',
    description: "Chat questions given up after every try (inbox status 'failed': the person got no reply), by channel",
  });
  const backlog = meter.createObservableGauge(METRIC.reviewBacklog, {
    unit: '{sample}',
    description: 'Live review samples without a reviewer’s label, by task and kb',
  });
  const labels = meter.createObservableCounter(METRIC.labels, {
    unit: '{label}',
    description: 'Labels given, by task and source (human, judge, import)',
  });
  const read = cachedRead(() => readOpsCounts(deps.db, deps.now?.() ?? new Date()), {
    log: deps.log,
    what: 'the inbox and review counts',
    ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
    ...(deps.cacheMs === undefined ? {} : { cacheMs: deps.cacheMs }),
  });
  const gauge = withZeros();
  const collect: BatchObservableCallback = async (result) => {
    const counts = await read();
    if (!counts) return;
    const channels = new Map((deps.channels ?? []).map((channel) => [channel, { pending: 0, oldest: 0, failed: 0 }]));
    for (const row of counts.inbox)
      channels.set(row.channel, { pending: row.pending, oldest: row.oldestAgeSeconds ?? 0, failed: row.failed });
    for (const [channel, row] of channels) {
      gauge(result, pending, row.pending, { channel });
      gauge(result, oldestAge, row.oldest, { channel });
      result.observe(failed, row.failed, { channel });
    }
    for (const row of counts.backlog) gauge(result, backlog, row.unlabelled, { task: row.task, kb: row.kb });
    for (const row of counts.labels) result.observe(labels, row.given, { task: row.task, source: row.source });
    gauge.flush(result);
  };
  const observables = [pending, oldestAge, failed, backlog, labels];
  meter.addBatchObservableCallback(collect, observables);
  return { stop: () => meter.removeBatchObservableCallback(collect, observables) };
}

/** Observes gauges, and on `flush` observes 0 for every series seen before but not in this collection. */
function withZeros() {
  const seen = new Map<Observable, Map<string, Attributes>>();
  let current = new Set<string>();
  const keyOf = (observable: Observable, attributes: Attributes) => {
    let series = seen.get(observable);
    if (!series) seen.set(observable, (series = new Map()));
    const key = JSON.stringify(attributes);
    series.set(key, attributes);
    return `${[...seen.keys()].indexOf(observable)}:${key}`;
  };
  const observe = (result: BatchObservableResult, observable: Observable, value: number, attributes: Attributes) => {
    current.add(keyOf(observable, attributes));
    result.observe(observable, value, attributes);
  };
  observe.flush = (result: BatchObservableResult) => {
    [...seen].forEach(([observable, series], i) => {
      for (const [key, attributes] of series) if (!current.has(`${i}:${key}`)) result.observe(observable, 0, attributes);
    });
    current = new Set();
  };
  return observe;
}
