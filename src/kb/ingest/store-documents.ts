import { and, eq, isNull, sql } from 'drizzle-orm';

import type { IngestLimits } from '../../config/ingest-limits.js';
import type { Db } from '../../store/open-store.js';
import { documents, facts, kbVersions, knowledgeBases } from '../../store/schema.js';
import { factBatches } from './document-facts.js';
import { FactFileReadError, type NewFact } from './fact-lines.js';
import type { SourceDocument } from './read-sources.js';
import { relink } from './relink-document.js';

export interface StoreDocumentsOptions {
  readonly kb: string;
  /** Facts per INSERT. */
  readonly batchSize: number;
  readonly limits: IngestLimits;
  readonly onProgress?: ((message: string) => void) | undefined;
  /** Paths of documents gone at their source (a sync): retired, with their facts, in the same new version. */
  readonly retire?: readonly string[] | undefined;
}

/** What one ingest stored: the KB's version after it, counts, and the documents that could not be stored. */
export interface StoredDocuments {
  readonly version: number;
  readonly added: number;
  readonly changed: number;
  readonly relinked: number;
  /** Active facts of the relinked documents given their new link. */
  readonly relinkedFacts: number;
  readonly facts: number;
  readonly retiredFacts: number;
  /** Documents of `retire` that were active and are now retired. */
  readonly removed: number;
  /** Facts stored per new or changed document. */
  readonly stored: ReadonlyMap<SourceDocument, number>;
  /** Documents that failed while their facts were read again (a .jsonl changed meanwhile), with why: their previous version stays. */
  readonly failed: ReadonlyMap<SourceDocument, string>;
}

/**
 * Stores new and changed documents as one new KB version, retiring the facts they replace (and the documents
 * named in `retire`, gone at their source), and gives
 * unchanged documents whose link changed their new link. One transaction: readers see the previous version
 * until it commits, and a failure leaves the KB as it was. Facts go in batches, a .jsonl's read from the file
 * as they are written, so memory holds a batch, not the file. Each document is stored within a savepoint: one
 * whose file changed since it was read is rolled back alone, its previous version kept. A KB is made only
 * when something is stored in it: otherwise it stays unknown (version 0), as a mistyped --kb should.
 */
export async function storeDocuments(db: Db, docs: readonly SourceDocument[], options: StoreDocumentsOptions): Promise<StoredDocuments> {
  try {
    return await storeInTransaction(db, docs, options);
  } catch (error) {
    if (error instanceof NothingStored) return error.stored;
    throw error;
  }
}

/** Thrown to roll back the KB an ingest made when it stored nothing in it: a mistyped --kb leaves no KB behind. */
class NothingStored extends Error {
  constructor(readonly stored: StoredDocuments) {
    super('nothing stored');
  }
}

async function storeInTransaction(db: Db, docs: readonly SourceDocument[], options: StoreDocumentsOptions): Promise<StoredDocuments> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const existing = await lockedKb(tx, options.kb);
    if (!existing && docs.length === 0) return nothingStored();
    const kb = existing ?? (await ensureKb(tx, options.kb));
    const active = await tx
      .select({ id: documents.id, path: documents.path, hash: documents.contentHash, url: documents.url })
      .from(documents)
      .where(and(eq(documents.kbId, kb.id), isNull(documents.retiredInVersion)));
    const activeByPath = new Map(active.map((d) => [d.path, d]));
    const pending = docs.filter((doc) => activeByPath.get(doc.path)?.hash !== doc.hash);
    const relinked = docs.filter((doc) => {
      const stored = activeByPath.get(doc.path);
      return stored?.hash === doc.hash && stored.url !== doc.url;
    });
    const gone = (options.retire ?? []).flatMap((path) => activeByPath.get(path) ?? []);
    const counts = { added: 0, changed: 0, relinked: 0, relinkedFacts: 0, facts: 0, retiredFacts: 0, removed: 0 };
    const stored = new Map<SourceDocument, number>();
    const failed = new Map<SourceDocument, string>();
    const unchanged = { version: kb.currentVersion, ...counts, stored, failed };
    if (pending.length === 0 && relinked.length === 0 && gone.length === 0) return unchanged;

    const version = kb.currentVersion + 1;
    const apart = async <T>(doc: SourceDocument, work: (savepoint: Db) => Promise<T>): Promise<T | undefined> => {
      try {
        return await tx.transaction((savepoint) => work(savepoint as unknown as Db));
      } catch (error) {
        if (!(error instanceof FactFileReadError)) throw error;
        failed.set(doc, error.message);
        return undefined;
      }
    };
    for (const doc of relinked) {
      const facts = await apart(doc, (sp) =>
        relink(sp, { kbId: kb.id, documentId: activeByPath.get(doc.path)!.id, version }, doc, options),
      );
      if (facts === undefined) continue;
      counts.relinked += 1;
      counts.relinkedFacts += facts;
    }
    const progress = factProgress(options.onProgress);
    for (const doc of pending) {
      const previous = activeByPath.get(doc.path);
      const done = await apart(doc, async (sp) => {
        const retired = previous ? await retire(sp, previous.id, version) : 0;
        return { retired, facts: await insertDocument(sp, { kbId: kb.id, version }, doc, options, progress) };
      });
      if (!done) continue;
      if (previous) counts.changed += 1;
      else counts.added += 1;
      counts.facts += done.facts;
      counts.retiredFacts += done.retired;
      stored.set(doc, done.facts);
    }
    for (const doc of gone) {
      counts.retiredFacts += await retire(tx, doc.id, version);
      counts.removed += 1;
    }
    const touched = [...[...pending, ...relinked].filter((doc) => !failed.has(doc)).map((doc) => doc.path), ...gone.map((doc) => doc.path)];
    if (touched.length === 0) {
      if (!existing) throw new NothingStored({ ...unchanged, ...counts });
      return { ...unchanged, ...counts };
    }
    const relinkNote = counts.relinked > 0 ? `, ${counts.relinked} relinked` : '';
    const removedNote = counts.removed > 0 ? `, ${counts.removed} removed` : '';
    const note = `${counts.added} added, ${counts.changed} changed${relinkNote}${removedNote}: ${touched.slice(0, 5).join(', ')}${touched.length > 5 ? ', …' : ''}`;
    await tx.insert(kbVersions).values({ kbId: kb.id, version, note });
    await tx.update(knowledgeBases).set({ currentVersion: version }).where(eq(knowledgeBases.id, kb.id));
    return { version, ...counts, stored, failed };
  });
}

function nothingStored(): StoredDocuments {
  const counts = { added: 0, changed: 0, relinked: 0, relinkedFacts: 0, facts: 0, retiredFacts: 0, removed: 0 };
  return { version: 0, ...counts, stored: new Map(), failed: new Map() };
}

/** Retires a replaced document and its active facts in `version` (never deletes them); how many facts it retired. */
async function retire(tx: Db, documentId: number, version: number): Promise<number> {
  await tx.update(documents).set({ retiredInVersion: version }).where(eq(documents.id, documentId));
  // Counted in the database: a replaced .jsonl may hold a million facts.
  const result = await tx.execute(sql`
    with retired as (
      update ${facts} set retired_in_version = ${version}
      where ${facts.documentId} = ${documentId} and ${facts.retiredInVersion} is null
      returning 1
    )
    select count(*)::int as n from retired`);
  return ((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) as number;
}

async function insertDocument(
  tx: Db,
  at: { kbId: number; version: number },
  doc: SourceDocument,
  options: StoreDocumentsOptions,
  progress: (facts: number) => void,
): Promise<number> {
  const [row] = await tx
    .insert(documents)
    .values({ kbId: at.kbId, path: doc.path, title: doc.title, url: doc.url, contentHash: doc.hash, addedInVersion: at.version })
    .returning({ id: documents.id });
  const documentId = (row as { id: number }).id;
  let count = 0;
  for await (const batch of factBatches(doc, options)) {
    await insertFacts(tx, { ...at, documentId, url: doc.url }, batch);
    count += batch.length;
    progress(batch.length);
  }
  return count;
}

/**
 * One INSERT of a batch of facts, sent as one JSON parameter that the database unpacks
 * (json_to_recordset): building the statement with a parameter per value cost more time
 * than the database took to store the rows.
 */
async function insertFacts(
  tx: Db,
  at: { kbId: number; version: number; documentId: number; url: string | null },
  batch: readonly NewFact[],
): Promise<void> {
  const rows = batch.map((fact) => ({
    external_id: fact.externalId === null ? null : wellFormed(fact.externalId),
    text: wellFormed(fact.text),
    heading: fact.heading === null ? null : wellFormed(fact.heading),
    position: fact.position,
    source: wellFormed(fact.source),
    url: fact.url ?? at.url,
    passage: wellFormed(fact.passage),
    confidence: fact.confidence,
  }));
  await tx.execute(sql`
    insert into ${facts} (kb_id, document_id, added_in_version, external_id, text, heading, position, source, url, passage, confidence)
    select ${at.kbId}, ${at.documentId}, ${at.version}, r.external_id, r.text, r.heading, r.position, r.source, r.url, r.passage, r.confidence
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(external_id text, text text, heading text, position integer, source text, url text, passage text, confidence real)`);
}

/** The string as a text parameter would reach the database: a lone surrogate (which JSON would carry as an escape PostgreSQL refuses) becomes U+FFFD. */
function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

/** "stored 20000 facts" each time the facts written pass another 10,000. */
function factProgress(onProgress: ((message: string) => void) | undefined): (facts: number) => void {
  let written = 0;
  return (facts) => {
    const before = written;
    written += facts;
    if (Math.floor(written / 10_000) > Math.floor(before / 10_000)) onProgress?.(`stored ${written} facts`);
  };
}

/** Finds or creates the KB row, locking it so concurrent ingests into one KB take turns. */
export async function ensureKb(tx: Db, name: string): Promise<{ id: number; currentVersion: number }> {
  await tx.insert(knowledgeBases).values({ name }).onConflictDoNothing();
  const kb = await lockedKb(tx, name);
  if (!kb) throw new Error(`knowledge base "${name}" vanished during ingestion`);
  return kb;
}

/** The KB row, locked for the rest of the transaction, or null when there is none. */
async function lockedKb(tx: Db, name: string): Promise<{ id: number; currentVersion: number } | null> {
  const [kb] = await tx
    .select({ id: knowledgeBases.id, currentVersion: knowledgeBases.currentVersion })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.name, name))
    .for('update');
  return kb ?? null;
}
