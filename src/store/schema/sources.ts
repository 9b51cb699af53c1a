import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** What one sync did, counted per document (the `documents` of `candor sources sync --json`). */
export interface SyncCounts {
  readonly fetched: number;
  readonly changed: number;
  readonly removed: number;
  readonly failed: number;
}

/**
 * Where a KB's documents live and how often they are synced: a web page, a
 * sitemap, or a local folder. Syncs run on the schedule (`every_seconds`) by
 * one runner across replicas, or on demand; the last one's outcome is kept here.
 */
export const sources = pgTable(
  'sources',
  {
    id: serial('id').primaryKey(),
    /** The KB's name: a source may be added before anything is stored in its KB. */
    kb: text('kb').notNull(),
    /** As given: an http(s) URL (a page or a sitemap) or a folder's absolute path. */
    source: text('source').notNull(),
    /** 'web' | 'folder' */
    kind: text('kind').notNull(),
    everySeconds: integer('every_seconds').notNull(),
    /** A glob the documents' paths (a page's URL path) must match; null: all. */
    include: text('include'),
    maxPages: integer('max_pages').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    /** 'changed' | 'unchanged' | 'failed'; null before the first sync. */
    lastOutcome: text('last_outcome'),
    lastError: text('last_error'),
    lastCounts: jsonb('last_counts').$type<SyncCounts>(),
    /** The KB's version after the last sync. */
    lastVersion: integer('last_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sources_kb_source').on(t.kb, t.source), index('sources_next_run').on(t.nextRunAt)],
);

/**
 * What a source's last syncs learned of each of its documents: the validators for a conditional request,
 * the content hash stored in the KB, when it was last seen in the listing, and its state:
 * 'active' (in the KB), 'gone' (removed at the source: its facts retired), 'failed' (the last fetch failed:
 * its previous facts, if any, stay).
 */
export const sourceDocuments = pgTable(
  'source_documents',
  {
    sourceId: integer('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    /** The document's path in the KB (documents.path). */
    key: text('key').notNull(),
    url: text('url'),
    etag: text('etag'),
    lastModified: text('last_modified'),
    versionToken: text('version_token'),
    contentHash: text('content_hash'),
    state: text('state').notNull(),
    lastError: text('last_error'),
    /** Facts it holds in the KB after the last sync that stored it. */
    facts: bigint('facts', { mode: 'number' }).notNull().default(0),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    changedAt: timestamp('changed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.key] })],
);

export type SourceRow = typeof sources.$inferSelect;
export type SourceDocumentRow = typeof sourceDocuments.$inferSelect;
