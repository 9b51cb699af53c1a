import { metrics, type BatchObservableCallback } from '@opentelemetry/api';
import { sql } from 'drizzle-orm';

import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { sourceDocuments, sources } from '../store/schema.js';
import { METRIC, SCOPE } from './attributes.js';
import { cachedRead } from './cached-read.js';

/** The document states of `candor.source.documents`: 'stale' is an active document not listed for the stale age. */
export const SOURCE_DOCUMENT_STATES = ['active', 'stale', 'failed', 'gone'] as const;

export interface SourceCounts {
  /** `since`: the last sync that did not fail, or when the source was added when none has yet. */
  readonly sources: readonly { kb: string; source: string; everySeconds: number; since: Date }[];
  readonly documents: readonly { kb: string; state: string; n: number }[];
}

/** Each source's period and last success, and its KB's documents by state, in two queries. */
export async function readSourceCounts(db: Db, staleBefore: Date): Promise<SourceCounts> {
  const [rows, states] = await Promise.all([
    db
      .select({
        kb: sources.kb,
        source: sources.source,
        everySeconds: sources.everySeconds,
        since: sql<string>`coalesce(${sources.lastSuccessAt}, ${sources.createdAt})`,
      })
      .from(sources),
    db.execute(sql`
      select s.kb, case when d.state = 'active' and d.last_seen_at < ${staleBefore.toISOString()}::timestamptz then 'stale' else d.state end
        as state, count(*)::int as n
      from ${sourceDocuments} d join ${sources} s on s.id = d.source_id
      group by 1, 2 order by 1, 2`) as unknown as Promise<{ rows: { kb: string; state: string; n: number }[] }>,
  ]);
  return {
    sources: rows.map((r) => ({ ...r, since: new Date(r.since) })),
    documents: states.rows.map((r) => ({ kb: r.kb, state: r.state, n: Number(r.n) })),
  };
}

/**
 * Observable gauges read from the shared store (every replica reports the same numbers: chart them with max):
 * `candor.source.last_success_timestamp` {kb, source} (Prometheus: candor_source_last_success_timestamp_seconds;
 * when the source was added until a sync first succeeds, so that one that never does is alerted on too),
 * `candor.source.period` {kb, source} (its --every, for the alert), and
 * `candor.source.documents` {kb, state}, every state observed (0 when none) so that a KB's series never vanish.
 */
export function startSourceMetrics(deps: { db: Db; log: Log; staleDays: number; now?: () => Date; timeoutMs?: number }): { stop(): void } {
  const meter = metrics.getMeter(SCOPE.candor);
  const lastSuccess = meter.createObservableGauge(METRIC.sourceLastSuccess, {
    unit: 's',
    description: 'When each source last synced without failing (Unix time; when it was added, until then), by kb and source',
  });
  const period = meter.createObservableGauge(METRIC.sourcePeriod, {
    unit: 's',
    description: 'How often each source is synced, by kb and source',
  });
  const documents = meter.createObservableGauge(METRIC.sourceDocuments, {
    unit: '{document}',
    description: `Documents synced from sources, by kb and state (active, stale: not listed for ${deps.staleDays} days, failed, gone)`,
  });
  const read = cachedRead(() => readSourceCounts(deps.db, new Date((deps.now?.() ?? new Date()).getTime() - deps.staleDays * 86_400_000)), {
    log: deps.log,
    what: "the sources' sync state",
    ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
  });
  const collect: BatchObservableCallback = async (result) => {
    const counts = await read();
    if (!counts) return;
    for (const row of counts.sources) {
      result.observe(period, row.everySeconds, { kb: row.kb, source: row.source });
      result.observe(lastSuccess, row.since.getTime() / 1000, { kb: row.kb, source: row.source });
    }
    const kbs = new Set(counts.sources.map((row) => row.kb));
    for (const kb of kbs)
      for (const state of SOURCE_DOCUMENT_STATES) {
        const n = counts.documents.find((row) => row.kb === kb && row.state === state)?.n ?? 0;
        result.observe(documents, n, { kb, state });
      }
  };
  const observables = [lastSuccess, period, documents];
  meter.addBatchObservableCallback(collect, observables);
  return { stop: () => meter.removeBatchObservableCallback(collect, observables) };
}
