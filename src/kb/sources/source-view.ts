import { formatDuration } from '../../core/text/duration.js';
import type { SourceRow } from './source-records.js';

/** A source as `sources list --json` prints it. */
export function sourceView(row: SourceRow, states: Record<string, number>, staleDays: number) {
  return {
    id: row.id,
    kb: row.kb,
    source: row.source,
    kind: row.kind,
    every: formatDuration(row.everySeconds),
    include: row.include,
    maxPages: row.maxPages,
    lastSync: row.lastSyncAt?.toISOString() ?? null,
    lastSuccess: row.lastSuccessAt?.toISOString() ?? null,
    lastOutcome: row.lastOutcome,
    lastError: row.lastError,
    lastDocuments: row.lastCounts,
    version: row.lastVersion,
    nextRun: row.nextRunAt.toISOString(),
    documents: { active: states.active ?? 0, stale: states.stale ?? 0, failed: states.failed ?? 0, gone: states.gone ?? 0 },
    staleDays,
  };
}

export type SourceView = ReturnType<typeof sourceView>;
