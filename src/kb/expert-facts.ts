import { and, desc, eq, inArray, isNull, like } from 'drizzle-orm';

import { CandorError } from '../kernel/errors.js';
import type { Db } from '../store/open-store.js';
import { documents, facts, gaps, kbVersions, knowledgeBases } from '../store/schema.js';
import { checkedAnswerText } from './expert-answer-text.js';
import { ensureKb } from './ingest/ingest.js';
import { EXPERT_SOURCE_PREFIX } from './knowledge-index.js';

/** The document expert facts belong to: one per KB, never a file, so no ingest replaces or retires it. */
export const EXPERT_DOCUMENT_PATH = 'candor:expert-answers';
export interface NewExpertFact {
  readonly kb: string;
  readonly text: string;
  /** The question it answers: searched with the fact, weighted below its text. */
  readonly question: string;
  /** "slack:U123", "teams:<aad id>", "cli:dana": the source becomes "expert:<expert>". */
  readonly expert: string;
  /** The expert's name as people read it. */
  readonly name: string;
  readonly at?: Date;
}

export interface ExpertFactRow {
  readonly id: number;
  readonly kb: string;
  readonly text: string;
  readonly question: string | null;
  readonly source: string;
  readonly author: string | null;
  readonly confirmedAt: string | null;
  readonly addedInVersion: number;
  readonly retiredInVersion: number | null;
}

/**
 * Adds an expert's answer as a fact of the KB, in a new KB version (so every
 * replica's index picks it up on its next ask). Runs in the caller's
 * transaction when given one. Returns the fact id and the version.
 */
export async function addExpertFact(db: Db, fact: NewExpertFact): Promise<{ factId: number; version: number }> {
  const text = checkedAnswerText(fact.text);
  const at = fact.at ?? new Date();
  const kb = await ensureKb(db, fact.kb);
  const version = kb.currentVersion + 1;
  const documentId = await expertDocument(db, kb.id, version);
  const [row] = await db
    .insert(facts)
    .values({
      kbId: kb.id,
      documentId,
      externalId: null,
      text,
      heading: null,
      position: 0,
      source: `${EXPERT_SOURCE_PREFIX}${fact.expert}`,
      passage: null,
      alias: fact.question.slice(0, 2000),
      author: fact.name.slice(0, 200),
      confirmedAt: at,
      addedInVersion: version,
    })
    .returning({ id: facts.id });
  const factId = (row as { id: number }).id;
  await bump(db, kb.id, version, `expert answer ${factId} by ${fact.expert}`);
  return { factId, version };
}

/** Retires a fact (an expert's or a document's) in a new KB version. Throws when it is not an active fact. */
export async function retireFact(db: Db, factId: number, by: string): Promise<{ kb: string; version: number }> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [row] = await t
      .select({ kbId: facts.kbId, retired: facts.retiredInVersion, kb: knowledgeBases.name })
      .from(facts)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
      .where(eq(facts.id, factId));
    if (!row) throw new CandorError('not_found', `There is no fact ${factId}.`, { status: 404 });
    if (row.retired !== null)
      throw new CandorError('conflict', `Fact ${factId} was already retired (in version ${row.retired}).`, { status: 409 });
    const kb = await ensureKb(t, row.kb);
    const version = kb.currentVersion + 1;
    await t.update(facts).set({ retiredInVersion: version }).where(eq(facts.id, factId));
    // A gap this fact answered is open again: nothing in the KB answers it now.
    await t
      .update(gaps)
      .set({ state: 'open', factId: null, closedBy: null, closedAt: null, reopenedBecause: 'fact_retired', reopenedAt: new Date() })
      .where(eq(gaps.factId, factId));
    await bump(t, kb.id, version, `fact ${factId} retired by ${by}`);
    return { kb: row.kb, version };
  });
}

/**
 * Changes an expert fact's text (or re-confirms it as it is, renewing it):
 * the old fact is retired and a new one takes its place, in one new version,
 * so every answer keeps naming the text it cited. Returns the new fact's id.
 */
export async function reviseExpertFact(
  db: Db,
  factId: number,
  change: { text?: string; expert: string; name: string; at?: Date },
): Promise<{ factId: number; version: number }> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [old] = await t
      .select({ text: facts.text, alias: facts.alias, source: facts.source, retired: facts.retiredInVersion, kb: knowledgeBases.name })
      .from(facts)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
      .where(eq(facts.id, factId));
    if (!old) throw new CandorError('not_found', `There is no fact ${factId}.`, { status: 404 });
    if (!old.source.startsWith(EXPERT_SOURCE_PREFIX))
      throw new CandorError('conflict', `Fact ${factId} comes from a document; change the document and ingest it again.`, {
        status: 409,
      });
    if (old.retired !== null) throw new CandorError('conflict', `Fact ${factId} was retired (in version ${old.retired}).`, { status: 409 });
    const added = await addExpertFact(t, {
      kb: old.kb,
      text: change.text ?? old.text,
      question: old.alias ?? '',
      expert: change.expert,
      name: change.name,
      ...(change.at ? { at: change.at } : {}),
    });
    await t.update(facts).set({ retiredInVersion: added.version }).where(eq(facts.id, factId));
    // The gap it answered is answered by the new wording; one reopened because this fact fell due is answered again.
    await t
      .update(gaps)
      .set({ state: 'answered', reopenedBecause: null, reopenedAt: null })
      .where(and(eq(gaps.factId, factId), eq(gaps.reopenedBecause, 'reconfirmation_due'), inArray(gaps.state, ['open', 'asked'])));
    await t.update(gaps).set({ factId: added.factId }).where(eq(gaps.factId, factId));
    return added;
  });
}

/** A KB's facts whose source starts with `sourcePrefix` (e.g. "expert"), newest first; retired ones too when asked. */
export async function listFacts(
  db: Db,
  options: { kb: string; sourcePrefix?: string; includeRetired?: boolean; limit?: number },
): Promise<ExpertFactRow[]> {
  const conditions = [eq(knowledgeBases.name, options.kb)];
  if (options.sourcePrefix) conditions.push(like(facts.source, `${options.sourcePrefix.replace(/[\\%_]/g, '\\$&')}%`));
  if (!options.includeRetired) conditions.push(isNull(facts.retiredInVersion));
  const rows = await db
    .select({
      id: facts.id,
      kb: knowledgeBases.name,
      text: facts.text,
      question: facts.alias,
      source: facts.source,
      author: facts.author,
      confirmedAt: facts.confirmedAt,
      addedInVersion: facts.addedInVersion,
      retiredInVersion: facts.retiredInVersion,
    })
    .from(facts)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
    .where(and(...conditions))
    .orderBy(desc(facts.id))
    .limit(options.limit ?? 1000);
  return rows.map((r) => ({ ...r, confirmedAt: r.confirmedAt ? new Date(r.confirmedAt).toISOString() : null }));
}

/** The KB's expert-answers document, created in `version` the first time. */
async function expertDocument(db: Db, kbId: number, version: number): Promise<number> {
  const [found] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.kbId, kbId), eq(documents.path, EXPERT_DOCUMENT_PATH), isNull(documents.retiredInVersion)));
  if (found) return found.id;
  const [row] = await db
    .insert(documents)
    .values({ kbId, path: EXPERT_DOCUMENT_PATH, title: 'Expert answers', contentHash: 'expert-answers', addedInVersion: version })
    .returning({ id: documents.id });
  return (row as { id: number }).id;
}

async function bump(db: Db, kbId: number, version: number, note: string): Promise<void> {
  await db.insert(kbVersions).values({ kbId, version, note });
  await db.update(knowledgeBases).set({ currentVersion: version }).where(eq(knowledgeBases.id, kbId));
}
