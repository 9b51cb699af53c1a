import { asc, eq, lte, sql } from 'drizzle-orm';

import type { Db } from '../../store/open-store.js';
import { sourceDocuments, sources, type SourceDocumentRow, type SourceRow, type SyncCounts } from '../../store/schema.js';

export type { SourceDocumentRow, SourceRow, SyncCounts } from '../../store/schema.js';

export interface NewSource {
  readonly kb: string;
  readonly source: string;
  readonly kind: 'web' | 'folder';
  readonly everySeconds: number;
  readonly include: string | null;
  readonly maxPages: number;
}

/** Adds a source, first synced at once (its next run is now); null when the KB already has this source. */
export async function addSource(db: Db, source: NewSource, now: Date): Promise<SourceRow | null> {
  const [row] = await db
    .insert(sources)
    .values({ ...source, nextRunAt: now })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function findSource(db: Db, id: number): Promise<SourceRow | null> {
  const [row] = await db.select().from(sources).where(eq(sources.id, id));
  return row ?? null;
}

export async function listSources(db: Db, kb?: string): Promise<SourceRow[]> {
  return db
    .select()
    .from(sources)
    .where(kb === undefined ? undefined : eq(sources.kb, kb))
    .orderBy(asc(sources.kb), asc(sources.id));
}

/** Removes a source and what its syncs learned; the documents it brought stay in the KB. */
export async function removeSource(db: Db, id: number): Promise<SourceRow | null> {
  const [row] = await db.delete(sources).where(eq(sources.id, id)).returning();
  return row ?? null;
}

/** Sources whose next run is due, soonest first. */
export async function dueSources(db: Db, now: Date): Promise<SourceRow[]> {
  return db.select().from(sources).where(lte(sources.nextRunAt, now)).orderBy(asc(sources.nextRunAt));
}

/** How one sync ended, as stored on its source. */
export interface SyncRecord {
  readonly outcome: 'changed' | 'unchanged' | 'failed';
  readonly counts: SyncCounts;
  readonly version: number;
  readonly error: string | null;
}

/** Stores a sync's outcome and sets the next run one period after it. */
export async function recordSync(db: Db, source: SourceRow, record: SyncRecord, now: Date): Promise<void> {
  await db
    .update(sources)
    .set({
      lastSyncAt: now,
      lastOutcome: record.outcome,
      lastError: record.error,
      lastCounts: record.counts,
      lastVersion: record.version,
      nextRunAt: new Date(now.getTime() + source.everySeconds * 1000),
      ...(record.outcome === 'failed' ? {} : { lastSuccessAt: now }),
    })
    .where(eq(sources.id, source.id));
}

export async function documentRows(db: Db, sourceId: number): Promise<Map<string, SourceDocumentRow>> {
  const rows = await db.select().from(sourceDocuments).where(eq(sourceDocuments.sourceId, sourceId));
  return new Map(rows.map((row) => [row.key, row]));
}

/** Writes what a sync learned of its documents (one statement per 500 rows). */
export async function saveDocumentRows(db: Db, rows: readonly SourceDocumentRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insert(sourceDocuments)
      .values(rows.slice(i, i + 500))
      .onConflictDoUpdate({
        target: [sourceDocuments.sourceId, sourceDocuments.key],
        set: {
          url: sql`excluded.url`,
          etag: sql`excluded.etag`,
          lastModified: sql`excluded.last_modified`,
          versionToken: sql`excluded.version_token`,
          contentHash: sql`excluded.content_hash`,
          state: sql`excluded.state`,
          lastError: sql`excluded.last_error`,
          facts: sql`excluded.facts`,
          lastSeenAt: sql`excluded.last_seen_at`,
          changedAt: sql`excluded.changed_at`,
        },
      });
  }
}

/** Per source, its documents by state, with 'stale' for active documents not seen in the listing since `staleBefore`. */
export async function documentStates(db: Db, staleBefore: Date): Promise<Map<number, Record<string, number>>> {
  const rows = await db
    .select({
      sourceId: sourceDocuments.sourceId,
      state: sql<string>`case when ${sourceDocuments.state} = 'active' and ${sourceDocuments.lastSeenAt} < ${staleBefore.toISOString()} then 'stale' else ${sourceDocuments.state} end`,
      n: sql<number>`count(*)::int`,
    })
    .from(sourceDocuments)
    .groupBy(sql`1, 2`);
  const out = new Map<number, Record<string, number>>();
  for (const row of rows) {
    const counts = out.get(row.sourceId) ?? {};
    counts[row.state] = Number(row.n);
    out.set(row.sourceId, counts);
  }
  return out;
}

/** A source's documents for the console: failing ones first, then gone, then active ones least recently seen first. */
export async function documentsOf(db: Db, sourceId: number, limit = 200): Promise<SourceDocumentRow[]> {
  return db
    .select()
    .from(sourceDocuments)
    .where(eq(sourceDocuments.sourceId, sourceId))
    .orderBy(sql`case ${sourceDocuments.state} when 'failed' then 0 when 'gone' then 1 else 2 end`, asc(sourceDocuments.lastSeenAt))
    .limit(limit);
}
