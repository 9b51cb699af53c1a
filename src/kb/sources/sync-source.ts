import { basename } from 'node:path';

import type { IngestLimits } from '../../config/ingest-limits.js';
import { describeError } from '../../kernel/errors.js';
import type { Db } from '../../store/open-store.js';
import { activeHashes, kbStatus } from '../ingest/ingest.js';
import { readDocumentBytes, readSourceDocument, type ReadOutcome, type SourceDocument } from '../ingest/read-sources.js';
import { sourceUrlFor, type SourceUrls } from '../ingest/source-urls.js';
import { storeDocuments } from '../ingest/store-documents.js';
import type { Connector, FetchOutcome, ListedDocument, Validators } from './connector.js';
import { documentRows, recordSync, saveDocumentRows, type SourceDocumentRow, type SourceRow, type SyncCounts } from './source-records.js';

/** One source's sync, as `candor sources sync --json` prints it. */
export interface SyncResult {
  readonly id: number;
  readonly kb: string;
  readonly source: string;
  readonly outcome: 'changed' | 'unchanged' | 'failed';
  readonly documents: SyncCounts;
  /** The KB's version after the sync. */
  readonly version: number;
  /** Why the source failed, or the first document that did; null when nothing failed. */
  readonly error: string | null;
}

export interface SyncDeps {
  readonly connector: Connector;
  readonly limits: IngestLimits;
  readonly sourceUrls?: SourceUrls;
  readonly onProgress?: (message: string) => void;
  readonly now?: () => Date;
  readonly signal?: AbortSignal;
}

/** What fetching and reading one listed document came to. */
type Read =
  | { kind: 'stored'; doc: SourceDocument; validators: Validators }
  | { kind: 'unchanged'; validators: Validators }
  | { kind: 'gone' | 'failed'; reason: string };

/**
 * Syncs one source into its KB: lists what the source holds, fetches each document (conditionally, with what
 * the last sync learned), and stores what changed as one new KB version, retiring documents gone at the source
 * (no longer listed, or 404/410). A document that fails keeps its previous facts; a source that cannot be listed,
 * or lists nothing while the KB holds its documents, changes nothing. Expert facts are never touched.
 */
export async function syncSource(db: Db, source: SourceRow, deps: SyncDeps): Promise<SyncResult> {
  const now = deps.now ?? (() => new Date());
  const signal = deps.signal ?? new AbortController().signal;
  const known = await documentRows(db, source.id);
  const active = await activeHashes(db, source.kb);
  const counts = { fetched: 0, changed: 0, removed: 0, failed: 0 };
  const finish = async (outcome: SyncResult['outcome'], version: number, error: string | null): Promise<SyncResult> => {
    const result = { id: source.id, kb: source.kb, source: source.source, outcome, documents: { ...counts }, version, error };
    await recordSync(db, source, { outcome, counts: result.documents, version, error }, now());
    return result;
  };
  const listing = await deps.connector.list(signal).catch((error: unknown) => ({ ok: false as const, reason: describeError(error) }));
  const version = (await kbStatus(db, source.kb))?.version ?? 0;
  if (!listing.ok) return finish('failed', version, listing.reason);
  const holding = [...known.values()].filter((row) => row.state !== 'gone' && active.has(row.key));
  if (listing.documents.length === 0 && holding.length > 0)
    return finish('failed', version, `the source listed no documents; its ${holding.length} documents in the KB are kept`);

  const rows: SourceDocumentRow[] = [];
  const docs: SourceDocument[] = [];
  const retire: string[] = [];
  let firstError: string | null = null;
  const seenAt = now();
  for (const [i, listed] of listing.documents.slice(0, source.maxPages).entries()) {
    signal.throwIfAborted(); // stopping: nothing stored, nothing recorded; the sync is still due
    const row = known.get(listed.key);
    const stored = row?.contentHash != null && active.get(listed.key) === row.contentHash;
    const previous = stored && row ? { etag: row.etag, lastModified: row.lastModified, versionToken: row.versionToken } : null;
    const read = await fetchAndRead(listed, previous, active.get(listed.key), deps, signal);
    counts.fetched += 1;
    const base = row ?? emptyRow(source.id, listed);
    if (read.kind === 'stored') docs.push(read.doc);
    if (read.kind === 'gone' && active.has(listed.key)) retire.push(listed.key);
    if (read.kind === 'failed') {
      counts.failed += 1;
      firstError ??= `${listed.key}: ${read.reason}`;
    }
    rows.push(nextRow(base, listed, read, seenAt));
    if ((i + 1) % 50 === 0) deps.onProgress?.(`${source.source}: fetched ${i + 1}/${listing.documents.length} documents`);
  }
  const listedKeys = new Set(listing.documents.map((doc) => doc.key));
  for (const row of holding) {
    if (listedKeys.has(row.key)) continue;
    retire.push(row.key);
    rows.push({ ...row, state: 'gone', lastError: 'no longer listed by the source', changedAt: seenAt });
  }
  const result = await storeDocuments(db, docs, {
    kb: source.kb,
    batchSize: 2000,
    limits: deps.limits,
    onProgress: deps.onProgress,
    retire,
  });
  for (const row of rows) {
    const doc = docs.find((d) => d.path === row.key);
    if (doc === undefined) continue;
    const reason = result.failed.get(doc);
    if (reason !== undefined)
      Object.assign(row, { state: 'failed', lastError: reason, contentHash: known.get(row.key)?.contentHash ?? null });
    else Object.assign(row, { facts: result.stored.get(doc) ?? row.facts });
  }
  await saveDocumentRows(db, rows);
  counts.changed = result.added + result.changed;
  counts.removed = result.removed;
  counts.failed += result.failed.size;
  const allFailed = counts.failed > 0 && counts.failed === counts.fetched;
  const outcome = allFailed ? 'failed' : result.version > version ? 'changed' : 'unchanged';
  return finish(outcome, Math.max(result.version, version), firstError);
}

async function fetchAndRead(
  listed: ListedDocument,
  previous: Validators | null,
  activeHash: string | undefined,
  deps: SyncDeps,
  signal: AbortSignal,
): Promise<Read> {
  const fetched: FetchOutcome = await deps.connector
    .fetch(listed, previous, signal)
    .catch((error: unknown) => ({ kind: 'failed' as const, reason: describeError(error) }));
  if (fetched.kind === 'unchanged') return { kind: 'unchanged', validators: fetched.validators };
  if (fetched.kind === 'gone' || fetched.kind === 'failed') return fetched;
  let outcome: ReadOutcome;
  try {
    outcome =
      fetched.kind === 'file'
        ? await readSourceDocument({ file: fetched.file, key: listed.key }, deps.limits)
        : await readDocumentBytes(fetched.bytes, fetched.type, { path: listed.key, file: fetched.url ?? listed.key }, deps.limits);
  } catch (error) {
    return { kind: 'failed', reason: describeError(error) };
  }
  if (outcome.kind !== 'document') return { kind: 'failed', reason: outcome.reason };
  if (outcome.doc.hash === activeHash) return { kind: 'unchanged', validators: fetched.validators };
  const folderUrl =
    fetched.kind === 'file' ? sourceUrlFor({ key: listed.key, folder: basename(fetched.file) }, deps.sourceUrls ?? {}) : null;
  // The page's own URL (after redirects) is the citation link; a file keeps its own link or the folder's base URL.
  const url = fetched.kind === 'file' ? (outcome.doc.url ?? folderUrl) : (fetched.url ?? listed.url);
  return { kind: 'stored', doc: { ...outcome.doc, url }, validators: fetched.validators };
}

function emptyRow(sourceId: number, listed: ListedDocument): SourceDocumentRow {
  return {
    sourceId,
    key: listed.key,
    url: listed.url,
    etag: null,
    lastModified: null,
    versionToken: null,
    contentHash: null,
    state: 'failed',
    lastError: null,
    facts: 0,
    lastSeenAt: new Date(0),
    changedAt: null,
  };
}

/** The document's row after this sync; `facts` of a stored document is filled in once it is stored. */
function nextRow(row: SourceDocumentRow, listed: ListedDocument, read: Read, seenAt: Date): SourceDocumentRow {
  const seen = { ...row, url: listed.url ?? row.url, lastSeenAt: seenAt };
  switch (read.kind) {
    case 'unchanged':
      return { ...seen, ...validatorColumns(read.validators, listed), state: 'active', lastError: null };
    case 'stored':
      return {
        ...seen,
        ...validatorColumns(read.validators, listed),
        contentHash: read.doc.hash,
        state: 'active',
        lastError: null,
        changedAt: seenAt,
      };
    case 'gone':
      return { ...seen, state: 'gone', lastError: read.reason, changedAt: seenAt };
    case 'failed':
      return { ...seen, state: row.state === 'gone' ? 'gone' : 'failed', lastError: read.reason };
  }
}

function validatorColumns(validators: Validators, listed: ListedDocument) {
  return { etag: validators.etag, lastModified: validators.lastModified, versionToken: validators.versionToken ?? listed.versionToken };
}
