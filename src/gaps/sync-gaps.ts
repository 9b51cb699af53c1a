import { and, desc, eq, gte, inArray, ne, not, sql } from 'drizzle-orm';

import { groupRefusals, type RefusedQuestion } from '../core/report/gap-topics.js';
import { tokenize } from '../core/text/tokenize.js';
import type { KnowledgeIndex } from '../kb/knowledge-index.js';
import type { Db } from '../store/open-store.js';
import { gapMembers, gaps, interactions } from '../store/schema.js';

/** Refusals that say a dependency failed, not that the KB lacks something: never a gap. */
export const FAILURE_REASONS = ['unavailable', 'llm_unavailable', 'invalid_output'] as const;
/** Refusals older than this are not assigned to gaps any more. */
const SYNC_DAYS = 90;
/** New refusals assigned per run at most (the newest), and questions of known gaps they are compared with. */
const MAX_NEW = 2000;
const MAX_KNOWN = 400;

/** The text a question is grouped by: case, spacing and closing punctuation aside. */
export function questionKey(question: string): string {
  return question
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!]+$/, '')
    .trim();
}

/**
 * Gives every recent refusal of a KB (for lack of knowledge; not evaluation
 * runs, not outages) its gap, and returns how many it assigned. A refusal
 * worded like one already in a gap joins it; the rest are grouped by topic
 * together with the gaps' own questions (the same clustering as the report's
 * topics): a new refusal joins the gap its group holds most of, or its group
 * becomes a new open gap. Assignments are kept, so a gap's id and state
 * survive restarts and later runs. One run at a time per KB (an advisory lock).
 */
export async function syncGaps(db: Db, index: KnowledgeIndex, options: { now?: Date } = {}): Promise<number> {
  const since = new Date((options.now ?? new Date()).getTime() - SYNC_DAYS * 86_400_000);
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`select pg_advisory_xact_lock(${GAP_LOCK}, ${index.kbId})`);
    const fresh = await unassignedRefusals(t, index.kbId, since);
    if (fresh.length === 0) return 0;
    const known = await knownQuestions(t, index.kbId);
    const list = sharingAWord(wordings(known, fresh));
    const groups = groupRefusals(list, { by: 'question', minSimilarity: GAP_SIMILARITY, termWeight: gapTermWeight(index) });
    let assigned = 0;
    for (const group of groups)
      assigned += await assignToGap(
        t,
        index.kbId,
        group.members.map((i) => list[i] as Wording),
      );
    return assigned;
  });
}

/** The KB's recent refusals for lack of knowledge that have no gap yet, newest first. */
function unassignedRefusals(t: Db, kbId: number, since: Date) {
  return t
    .select({ id: interactions.id, question: interactions.question, reason: interactions.reason, createdAt: interactions.createdAt })
    .from(interactions)
    .where(
      and(
        eq(interactions.kbId, kbId),
        eq(interactions.decision, 'abstain'),
        ne(interactions.channel, 'eval'),
        not(inArray(interactions.reason, [...FAILURE_REASONS])),
        gte(interactions.createdAt, since),
        sql`not exists (select 1 from ${gapMembers} where ${gapMembers.interactionId} = ${interactions.id})`,
      ),
    )
    .orderBy(desc(interactions.id))
    .limit(MAX_NEW);
}

/** The questions the KB's gaps already hold, newest first. */
function knownQuestions(t: Db, kbId: number) {
  return t
    .select({ gapId: gapMembers.gapId, question: interactions.question, createdAt: interactions.createdAt })
    .from(gapMembers)
    .innerJoin(interactions, eq(interactions.id, gapMembers.interactionId))
    .innerJoin(gaps, eq(gaps.id, gapMembers.gapId))
    .where(eq(gaps.kbId, kbId))
    .orderBy(desc(gapMembers.interactionId))
    .limit(MAX_KNOWN * 4);
}

/** One distinct wording: the gaps that already hold it (with how often) and the new refusals with it. */
interface Wording extends RefusedQuestion {
  gapAsks: Map<number, number>;
  newIds: number[];
}

/** Known questions and new refusals as one item per distinct wording. */
function wordings(
  known: readonly { gapId: number; question: string; createdAt: Date | string }[],
  fresh: readonly { id: number; question: string; createdAt: Date | string }[],
): Map<string, Wording> {
  const items = new Map<string, Wording>();
  const item = (question: string, createdAt: Date): Wording => {
    const key = questionKey(question);
    let found = items.get(key);
    if (!found) {
      found = { question, times: 0, reasons: {}, lastAsked: createdAt.toISOString(), interactionId: 0, gapAsks: new Map(), newIds: [] };
      items.set(key, found);
    }
    return found;
  };
  for (const row of known) {
    const it = item(row.question, new Date(row.createdAt));
    if (it.gapAsks.size === 0 && items.size > MAX_KNOWN) continue;
    (it as { times: number }).times += 1;
    it.gapAsks.set(row.gapId, (it.gapAsks.get(row.gapId) ?? 0) + 1);
  }
  for (const row of fresh) {
    const it = item(row.question, new Date(row.createdAt));
    (it as { times: number }).times += 1;
    it.newIds.push(row.id);
  }
  return items;
}

/**
 * The new wordings and the known ones that share a word with one of them. Known questions that share no word with
 * a new refusal cannot draw it into their gap: left out, so a sync after one refusal (automatic routing) clusters a
 * handful of questions, not every gap's.
 */
function sharingAWord(items: Map<string, Wording>): Wording[] {
  const freshTerms = new Set([...items.values()].flatMap((it) => (it.newIds.length > 0 ? tokenize(it.question).map((t) => t.term) : [])));
  return [...items.values()].filter(
    (it) => it.times > 0 && (it.newIds.length > 0 || tokenize(it.question).some((t) => freshTerms.has(t.term))),
  );
}

/**
 * A group's new refusals join the gap its members were asked in most (the lower id on a tie), or a new gap worded
 * as its most asked question; returns how many were assigned.
 */
async function assignToGap(t: Db, kbId: number, members: readonly Wording[]): Promise<number> {
  const newIds = members.flatMap((m) => m.newIds);
  if (newIds.length === 0) return 0;
  const asks = new Map<number, number>();
  for (const m of members) for (const [gapId, n] of m.gapAsks) asks.set(gapId, (asks.get(gapId) ?? 0) + n);
  let gapId = [...asks.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  if (gapId === undefined) {
    // A new gap, worded as its most asked question.
    const first = [...members].sort((a, b) => b.times - a.times || (a.lastAsked < b.lastAsked ? -1 : 1))[0] as Wording;
    const [row] = await t.insert(gaps).values({ kbId, question: first.question }).returning({ id: gaps.id });
    gapId = (row as { id: number }).id;
  }
  const inserted = await t
    .insert(gapMembers)
    .values(newIds.map((interactionId) => ({ interactionId, gapId: gapId as number })))
    .onConflictDoNothing()
    .returning({ id: gapMembers.interactionId });
  return inserted.length;
}

/**
 * How much a word says about a gap: the KB's own IDF, so that words the KB uses everywhere ("staff",
 * "office") weigh little and words it lacks, the gap, weigh most.
 */
export function gapTermWeight(index: Pick<KnowledgeIndex, 'vocabulary'>): (term: string) => number {
  const vocabulary = index.vocabulary();
  return (term) => vocabulary.idf(term);
}

/**
 * How alike (average-linkage cosine of every word, weighted by gapTermWeight) a refusal must be to a gap's
 * questions to join it: rewordings of one question, which one expert answer closes. Joining two different
 * questions would tell one asker another's answer; leaving two rewordings apart costs an expert one more
 * post. So the bar is high.
 */
export const GAP_SIMILARITY = 0.6;

/** The advisory lock's first key: "gaps" (the second is the KB id). */
const GAP_LOCK = 0x67617073;
