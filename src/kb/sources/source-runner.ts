import type { IngestLimits } from '../../config/ingest-limits.js';
import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import type { Store } from '../../store/open-store.js';
import { instruments } from '../../telemetry/instruments.js';
import type { SourceUrls } from '../ingest/source-urls.js';
import type { Connector } from './connector.js';
import { createFolderConnector } from './folder-connector.js';
import { dueSources, findSource, listSources, type SourceRow } from './source-records.js';
import { syncSource, type SyncResult } from './sync-source.js';

/** What syncing needs besides the store: the ingest limits and links, and the web requests' pace and time limit. */
export interface SourceRunnerDeps {
  readonly store: Store;
  readonly log: Log;
  readonly limits: IngestLimits;
  readonly sourceUrls?: SourceUrls;
  readonly paceMs: number;
  readonly timeoutMs: number;
  /** Makes the connector of a web source (the composition root passes the web connector). */
  readonly webConnector: (row: SourceRow, options: { paceMs: number; timeoutMs: number; limits: IngestLimits }) => Connector;
  readonly now?: () => Date;
}

function connectorFor(row: SourceRow, deps: SourceRunnerDeps): Connector {
  if (row.kind === 'folder') return createFolderConnector(row.source, { include: row.include, maxPages: row.maxPages });
  return deps.webConnector(row, { paceMs: deps.paceMs, timeoutMs: deps.timeoutMs, limits: deps.limits });
}

/**
 * Syncs one source if no other sync of it runs (on any replica: a lock in the store); null when one does.
 * `due` re-reads the source under the lock and skips it when another replica has just synced it.
 */
async function syncLocked(
  deps: SourceRunnerDeps,
  row: SourceRow,
  options: { due?: Date; onProgress?: (line: string) => void; signal?: AbortSignal },
) {
  return deps.store.withTryLock(`candor.source.${row.id}`, async (): Promise<SyncResult | null> => {
    const fresh = await findSource(deps.store.db, row.id);
    if (fresh === null || (options.due !== undefined && fresh.nextRunAt > options.due)) return null;
    const result = await syncSource(deps.store.db, fresh, {
      connector: connectorFor(fresh, deps),
      limits: deps.limits,
      ...(deps.sourceUrls ? { sourceUrls: deps.sourceUrls } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(deps.now ? { now: deps.now } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    instruments.sourceSyncs().add(1, { kb: result.kb, outcome: result.outcome });
    deps.log(result.outcome === 'failed' ? 'warn' : 'info', 'source synced', {
      source: result.id,
      kb: result.kb,
      outcome: result.outcome,
      ...result.documents,
      version: result.version,
      ...(result.error ? { error: result.error } : {}),
    });
    return result;
  });
}

/**
 * Syncs the sources named (one id, one KB's, or all) now, one after another, with progress lines. A source
 * another sync is running for is waited for (up to `waitMs`), then synced: on demand means after any change.
 */
export async function syncSourcesNow(
  deps: SourceRunnerDeps,
  which: { kb?: string; id?: number },
  options: { onProgress?: (line: string) => void; waitMs?: number } = {},
): Promise<SyncResult[]> {
  const rows =
    which.id !== undefined
      ? [await findSource(deps.store.db, which.id)].filter(
          (row): row is SourceRow => row !== null && (which.kb === undefined || row.kb === which.kb),
        )
      : await listSources(deps.store.db, which.kb);
  const results: SyncResult[] = [];
  for (const row of rows) {
    options.onProgress?.(`syncing source ${row.id} (${row.source}) into ${row.kb}`);
    const deadline = Date.now() + (options.waitMs ?? 600_000);
    for (;;) {
      const run = await syncLocked(deps, row, options.onProgress ? { onProgress: options.onProgress } : {});
      if (run.ran && run.value) results.push(run.value);
      if (run.ran) break;
      if (Date.now() > deadline) {
        results.push({
          id: row.id,
          kb: row.kb,
          source: row.source,
          outcome: 'failed',
          documents: { fetched: 0, changed: 0, removed: 0, failed: 0 },
          version: row.lastVersion ?? 0,
          error: 'another sync of this source was still running',
        });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  return results;
}

/**
 * Every `pollMs`, syncs the sources that are due, one at a time; across replicas each due sync runs once (the
 * lock, then the next run re-read under it). A failing sync is logged and recorded; the next sources still run.
 */
export function startSourceSchedule(deps: SourceRunnerDeps, pollMs: number): { stop(): Promise<void> } {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  const tick = async () => {
    const now = deps.now?.() ?? new Date();
    for (const row of await dueSources(deps.store.db, now)) {
      if (stopping.signal.aborted) return;
      await syncLocked(deps, row, { due: now, signal: stopping.signal }).catch((error: unknown) => {
        if (!stopping.signal.aborted) deps.log('error', 'source sync failed', { source: row.id, kb: row.kb, error: describeError(error) });
      });
    }
  };
  const start = () => {
    // One pass at a time: a long sync delays the next look, it does not pile looks up.
    running ??= tick()
      .catch((error: unknown) => deps.log('warn', 'could not look for sources due a sync', { error: describeError(error) }))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(start, pollMs);
  timer.unref();
  return {
    async stop() {
      stopping.abort();
      clearInterval(timer);
      await running;
    },
  };
}
