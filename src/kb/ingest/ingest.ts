import { and, eq, isNull, sql } from 'drizzle-orm';

import { withDefaults, type IngestLimits } from '../../config/ingest-limits.js';
import type { Db } from '../../store/open-store.js';
import { documents, facts, knowledgeBases } from '../../store/schema.js';
import { TypeTally, type CountsByType } from './ingest-report.js';
import {
  fileTypeOf,
  listSourceFiles,
  readSourceDocument,
  type NewFact,
  type ReadDocument,
  type Skipped,
  type SourceDocument,
} from './read-sources.js';
import { sourceUrlFor, type SourceUrls } from './source-urls.js';
import { storeDocuments } from './store-documents.js';

export { ensureKb } from './store-documents.js';

export interface IngestSummary {
  readonly kb: { readonly name: string; readonly version: number };
  readonly documents: number;
  readonly added: number;
  readonly changed: number;
  readonly unchanged: number;
  /** Unchanged documents whose link changed (CANDOR_SOURCE_URLS, say): updated in place, facts kept. Counted in `unchanged` too. */
  readonly relinked: number;
  /** Active facts of the relinked documents that got the new link. */
  readonly relinkedFacts: number;
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
  /** Per-file limits (config `ingest`); a file over one fails alone. @default DEFAULT_INGEST_LIMITS (src/config/ingest-limits.ts) */
  readonly limits?: Partial<IngestLimits>;
  /**
   * Folder → base URL (config `kb.sourceUrls`, CANDOR_SOURCE_URLS): the link of a document that names
   * none itself (an HTML canonical URL or a PDF's metadata wins). A .jsonl fact's own `url` wins over both.
   * @default {}
   */
  readonly sourceUrls?: SourceUrls;
  /** Facts per INSERT. @default 2000 */
  readonly batchSize?: number;
}

const BATCH = 2000;
/** Facts written by one ingest from which the facts table's statistics are refreshed (ANALYZE) once it commits. */
const ANALYZE_AFTER_FACTS = 10_000;

/**
 * Ingests files into a KB. Unchanged files (same content hash) change nothing;
 * new or changed ones make one new KB version, retiring the facts they replace.
 * An unchanged file whose link changed keeps its facts and gets the new link
 * in place, in a new version too (so every replica reloads it). All of it
 * happens in one transaction: a failure leaves the KB as it was. A .jsonl of
 * any size is streamed, read once for its hash and bad lines and again as its
 * facts are written in batches: memory holds a batch, not the file.
 */
export async function ingestPaths(db: Db, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const { files, skipped: listed } = listSourceFiles(paths);
  const tally = new TypeTally(fileTypeOf);
  for (const entry of listed) tally.left(entry, 'skipped');
  // In file order: files skipped, and documents standing for the lines skipped in them (once they are stored or found unchanged).
  const skipped: (Skipped | SourceDocument)[] = [...listed];
  const errors: Skipped[] = [];
  const docs: SourceDocument[] = [];
  const limits = withDefaults(options.limits);
  for (const [i, file] of files.entries()) {
    const outcome = await readSourceDocument(file, limits).catch((error: unknown) => ({
      kind: 'error' as const,
      reason: (error as Error).message,
    }));
    if (outcome.kind === 'document') {
      const doc = { ...outcome.doc, url: outcome.doc.url ?? sourceUrlFor(file, options.sourceUrls ?? {}) };
      docs.push(doc);
      skipped.push(doc);
      tally.read(doc);
    } else {
      const entry = { path: file.file, reason: outcome.reason };
      (outcome.kind === 'error' ? errors : skipped).push(entry);
      tally.left(entry, outcome.kind === 'error' ? 'errors' : 'skipped');
    }
    if (files.length >= 20 && (i + 1) % 20 === 0) options.onProgress?.(`read ${i + 1}/${files.length} files`);
  }

  const notes: Skipped[] = [];
  if (options.extractFacts) {
    // Only new or changed documents are worth a model call; unchanged ones are skipped inside the transaction anyway.
    const known = await activeHashes(db, options.kb);
    for (const [i, doc] of docs.entries()) {
      if (known.get(doc.path) === doc.hash || doc.type === 'jsonl') continue;
      docs[i] = await extractDocument(doc, options.extractFacts, notes);
      skipped[skipped.indexOf(doc)] = docs[i];
      options.onProgress?.(`extracted facts from ${doc.path} (${i + 1}/${docs.length})`);
    }
  }

  const result = await storeDocuments(db, docs, {
    kb: options.kb,
    batchSize: options.batchSize ?? BATCH,
    limits,
    onProgress: options.onProgress,
  });
  for (const [doc, count] of result.stored) tally.stored(doc, count);
  const written = [...result.stored.values()].reduce((sum, count) => sum + count, 0);
  // After a bulk load the planner's row estimates are stale until autovacuum gets to it, and the index
  // build that starts right away reads this KB page by page: fresh statistics keep those reads on the index.
  if (written >= ANALYZE_AFTER_FACTS) await db.execute(sql`analyze facts`).catch(() => undefined);
  for (const [doc, reason] of result.failed) {
    errors.push({ path: doc.file, reason });
    tally.failed(doc);
  }
  const read = docs.filter((doc) => !result.failed.has(doc));
  const lines = skipped.flatMap((entry) => {
    if (!('hash' in entry)) return [entry];
    return result.failed.has(entry) ? [] : entry.skipped.map((reason) => ({ path: entry.file, reason }));
  });
  return {
    kb: { name: options.kb, version: result.version },
    documents: read.length,
    added: result.added,
    changed: result.changed,
    unchanged: read.length - result.added - result.changed,
    relinked: result.relinked,
    relinkedFacts: result.relinkedFacts,
    facts: result.facts,
    retiredFacts: result.retiredFacts,
    skipped: [...lines, ...notes],
    errors,
    byType: tally.result(),
    ms: now() - started,
  };
}

/** The content hash of each active document of a KB, by path. */
export async function activeHashes(db: Db, kb: string): Promise<Map<string, string>> {
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
  doc: ReadDocument,
  extract: NonNullable<IngestOptions['extractFacts']>,
  notes: Skipped[],
): Promise<ReadDocument> {
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
