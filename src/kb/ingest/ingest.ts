import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';

import type { Db } from '../../store/open-store.js';
import { documents, facts, kbVersions, knowledgeBases } from '../../store/schema.js';
import { withDefaults, type IngestLimits } from '../ingest-limits.js';
import { TypeTally, type CountsByType } from './ingest-report.js';
import { fileTypeOf, listSourceFiles, readSourceDocument, type NewFact, type Skipped, type SourceDocument } from './read-sources.js';
import { sourceUrlFor, type SourceUrls } from './source-urls.js';

export interface IngestSummary {
  readonly kb: { readonly name: string; readonly version: number };
  readonly documents: number;
  readonly added: number;
  readonly changed: number;
  readonly unchanged: number;
  /** Unchanged documents whose link changed (CANDOR_SOURCE_URLS, say): updated in place, facts kept. */
  readonly relinked: number;
  readonly facts: number;
  readonly retiredFacts: number;
  /** Files left out on purpose (unsupported type, scanned PDF without text), and lines or pages left out of read files. */
  readonly skipped: readonly Skipped[];
  /** Files that could not be read (corrupt, encrypted or truncated documents, not text, over a limit); the rest of the batch is stored. */
  readonly errors: readonly Skipped[];
  /** Files, facts stored, table rows, skipped items and errors per file type. */
  readonly byType: CountsByType;
  readonly ms: number;
}

export interface IngestOptions {
  readonly kb: string;
  /** Called with a line of progress for long runs. */
  readonly onProgress?: (message: string) => void;
  readonly now?: () => number;
  /**
   * Splits a passage (a section's text under its heading) into atomic,
   * self-contained facts — the LLM extraction of KnowOrNot's first stage.
   * Absent: sentence splitting. Not applied to ready-made facts (.jsonl).
   */
  readonly extractFacts?: (passage: { readonly heading: string | null; readonly text: string }) => Promise<readonly string[]>;
  /** Per-file limits (config `ingest`); a file over one fails alone. @default DEFAULT_INGEST_LIMITS (src/kb/ingest-limits.ts) */
  readonly limits?: Partial<IngestLimits>;
  /**
   * Folder → base URL (config `kb.sourceUrls`, CANDOR_SOURCE_URLS): the link of a document that names
   * none itself (an HTML canonical URL or a PDF's metadata wins). A .jsonl fact's own `url` wins over both.
   * @default {}
   */
  readonly sourceUrls?: SourceUrls;
}

const BATCH = 500;

/**
 * Ingests files into a KB. Unchanged files (same content hash) change nothing;
 * new or changed ones make one new KB version, retiring the facts they replace.
 * An unchanged file whose link changed keeps its facts and gets the new link
 * in place, in a new version too (so every replica reloads it). All of it
 * happens in one transaction: a failure leaves the KB as it was.
 */
export async function ingestPaths(db: Db, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const { files, skipped } = listSourceFiles(paths);
  const tally = new TypeTally(fileTypeOf);
  for (const entry of skipped) tally.left(entry, 'skipped');
  const errors: Skipped[] = [];
  const docs: SourceDocument[] = [];
  const limits = withDefaults(options.limits);
  for (const [i, file] of files.entries()) {
    const outcome = await readSourceDocument(file, limits).catch((error: unknown) => ({
      kind: 'error' as const,
      reason: (error as Error).message,
    }));
    if (outcome.kind === 'document') {
      docs.push({ ...outcome.doc, url: outcome.doc.url ?? sourceUrlFor(file, options.sourceUrls ?? {}) });
      tally.read(outcome.doc);
      for (const line of outcome.doc.skipped) skipped.push({ path: file.file, reason: line });
    } else {
      const entry = { path: file.file, reason: outcome.reason };
      (outcome.kind === 'error' ? errors : skipped).push(entry);
      tally.left(entry, outcome.kind === 'error' ? 'errors' : 'skipped');
    }
    if (files.length >= 20 && (i + 1) % 20 === 0) options.onProgress?.(`read ${i + 1}/${files.length} files`);
  }

  if (options.extractFacts) {
    // Only new or changed documents are worth a model call; unchanged ones are skipped inside the transaction anyway.
    const known = await activeHashes(db, options.kb);
    for (const [i, doc] of docs.entries()) {
      if (known.get(doc.path) === doc.hash || doc.facts.some((f) => f.externalId !== null)) continue;
      docs[i] = await extractDocument(doc, options.extractFacts, skipped);
      options.onProgress?.(`extracted facts from ${doc.path} (${i + 1}/${docs.length})`);
    }
  }

  const result = await db.transaction(async (tx) => {
    const kb = await ensureKb(tx as unknown as Db, options.kb);
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
    const counts = { added: 0, changed: 0, relinked: relinked.length, facts: 0, retiredFacts: 0 };
    if (pending.length === 0 && relinked.length === 0) return { version: kb.currentVersion, ...counts };

    const version = kb.currentVersion + 1;
    for (const doc of relinked) await relink(tx as unknown as Db, activeByPath.get(doc.path)!.id, doc);
    const replaced = pending.flatMap((doc) => activeByPath.get(doc.path)?.id ?? []);
    if (replaced.length > 0) {
      await tx.update(documents).set({ retiredInVersion: version }).where(inArray(documents.id, replaced));
      const retired = await tx
        .update(facts)
        .set({ retiredInVersion: version })
        .where(and(inArray(facts.documentId, replaced), isNull(facts.retiredInVersion)))
        .returning({ id: facts.id });
      counts.retiredFacts = retired.length;
    }
    for (const doc of pending) {
      tally.stored(doc);
      if (activeByPath.has(doc.path)) counts.changed += 1;
      else counts.added += 1;
      const [row] = await tx
        .insert(documents)
        .values({ kbId: kb.id, path: doc.path, title: doc.title, url: doc.url, contentHash: doc.hash, addedInVersion: version })
        .returning({ id: documents.id });
      const documentId = (row as { id: number }).id;
      for (let i = 0; i < doc.facts.length; i += BATCH) {
        const batch = doc.facts
          .slice(i, i + BATCH)
          .map((fact) => ({ ...fact, url: fact.url ?? doc.url, kbId: kb.id, documentId, addedInVersion: version }));
        await tx.insert(facts).values(batch);
        counts.facts += batch.length;
        if (counts.facts % 10_000 < BATCH && counts.facts >= 10_000) options.onProgress?.(`stored ${counts.facts} facts`);
      }
    }
    const touched = [...pending, ...relinked].map((d) => d.path);
    const relinkNote = relinked.length > 0 ? `, ${relinked.length} relinked` : '';
    const note = `${counts.added} added, ${counts.changed} changed${relinkNote}: ${touched.slice(0, 5).join(', ')}${touched.length > 5 ? ', …' : ''}`;
    await tx.insert(kbVersions).values({ kbId: kb.id, version, note });
    await tx.update(knowledgeBases).set({ currentVersion: version }).where(eq(knowledgeBases.id, kb.id));
    return { version, ...counts };
  });

  return {
    kb: { name: options.kb, version: result.version },
    documents: docs.length,
    added: result.added,
    changed: result.changed,
    unchanged: docs.length - result.added - result.changed,
    relinked: result.relinked,
    facts: result.facts,
    retiredFacts: result.retiredFacts,
    skipped,
    errors,
    byType: tally.result(),
    ms: now() - started,
  };
}

/**
 * Gives an unchanged document its new link, and its active facts too, except
 * .jsonl facts with a link of their own (unchanged, as their file is).
 */
async function relink(tx: Db, documentId: number, doc: SourceDocument): Promise<void> {
  await tx.update(documents).set({ url: doc.url }).where(eq(documents.id, documentId));
  const ownLinks = doc.facts.flatMap((fact) => (fact.url !== null && fact.externalId !== null ? [fact.externalId] : []));
  const conditions = [eq(facts.documentId, documentId), isNull(facts.retiredInVersion)];
  if (ownLinks.length > 0) conditions.push(sql`(${facts.externalId} is null or ${notInArray(facts.externalId, ownLinks)})`);
  await tx
    .update(facts)
    .set({ url: doc.url })
    .where(and(...conditions));
}

async function activeHashes(db: Db, kb: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ path: documents.path, hash: documents.contentHash })
    .from(documents)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, documents.kbId))
    .where(and(eq(knowledgeBases.name, kb), isNull(documents.retiredInVersion)));
  return new Map(rows.map((r) => [r.path, r.hash]));
}

/**
 * Replaces each passage's sentence facts with the facts the model extracts
 * from it; each keeps the passage's heading and source locator. A passage the
 * model fails on keeps its sentence facts, and the failure is reported.
 */
async function extractDocument(
  doc: SourceDocument,
  extract: NonNullable<IngestOptions['extractFacts']>,
  notes: Skipped[],
): Promise<SourceDocument> {
  const passages: NewFact[][] = [];
  for (const fact of doc.facts) {
    const last = passages[passages.length - 1];
    if (last && last[0]?.heading === fact.heading) last.push(fact);
    else passages.push([fact]);
  }
  const out: NewFact[] = [];
  for (const passage of passages) {
    const first = passage[0] as NewFact;
    let texts: readonly string[];
    try {
      texts = (await extract({ heading: first.heading, text: passage.map((f) => f.text).join('\n') }))
        .map((t) => t.trim())
        .filter((t) => t.length > 0);
      if (texts.length === 0) throw new Error('the model returned no facts');
    } catch (error) {
      notes.push({
        path: doc.path,
        reason: `${first.heading ?? 'passage'}: fact extraction failed (${(error as Error).message}); kept its sentences`,
      });
      texts = passage.map((f) => f.text);
    }
    for (const text of texts) out.push({ ...first, text, position: out.length });
  }
  return { ...doc, facts: out };
}

/** Finds or creates the KB row, locking it so concurrent ingests into one KB take turns. */
export async function ensureKb(tx: Db, name: string): Promise<{ id: number; currentVersion: number }> {
  await tx.insert(knowledgeBases).values({ name }).onConflictDoNothing();
  const [kb] = await tx
    .select({ id: knowledgeBases.id, currentVersion: knowledgeBases.currentVersion })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.name, name))
    .for('update');
  if (!kb) throw new Error(`knowledge base "${name}" vanished during ingestion`);
  return kb;
}

/** Counts of a KB's active content, for status lines. */
export async function kbStatus(db: Db, name: string): Promise<{ version: number; facts: number; documents: number } | null> {
  const [kb] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.name, name));
  if (!kb) return null;
  const [f] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(facts)
    .where(and(eq(facts.kbId, kb.id), isNull(facts.retiredInVersion)));
  const [d] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .where(and(eq(documents.kbId, kb.id), isNull(documents.retiredInVersion)));
  return { version: kb.currentVersion, facts: f?.n ?? 0, documents: d?.n ?? 0 };
}
