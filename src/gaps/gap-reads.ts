import { desc, eq, sql } from 'drizzle-orm';

import { type KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { expertTitle } from '../kb/knowledge-index.js';
import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { facts, gapMembers, gapRequests, gaps, interactions, knowledgeBases } from '../store/schema.js';
import type { ExpertCard, GapState } from './expert-types.js';

/** A stored gap with its KB's name: what the experts desk reads before it acts. */
export type GapRow = NonNullable<Awaited<ReturnType<typeof readGap>>>;

export async function readGap(db: Db, gapId: number) {
  const [row] = await db
    .select({
      id: gaps.id,
      kbId: gaps.kbId,
      kb: knowledgeBases.name,
      question: gaps.question,
      state: gaps.state,
      factId: gaps.factId,
      posts: gaps.posts,
      askedAt: gaps.askedAt,
      createdAt: gaps.createdAt,
      closedBy: gaps.closedBy,
    })
    .from(gaps)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, gaps.kbId))
    .where(eq(gaps.id, gapId));
  return row;
}

/**
 * What an experts' post shows of a gap: the question, what the bot replied to
 * the first asker, how many asked, the facts that came closest (a KB that
 * cannot be read leaves them out, with a warning), and the answer once there
 * is one. `action` is the signed value its buttons carry.
 */
export async function readCard(db: Db, indexes: KnowledgeIndexCache, gap: GapRow, action: string, log: Log): Promise<ExpertCard> {
  const [first] = await db
    .select({ reply: interactions.answer, requests: sql<number>`count(*) over ()` })
    .from(gapRequests)
    .innerJoin(interactions, eq(interactions.id, gapRequests.interactionId))
    .where(eq(gapRequests.gapId, gap.id))
    .orderBy(gapRequests.id)
    .limit(1);
  const [fact] =
    gap.factId === null ? [] : await db.select({ text: facts.text, by: facts.author }).from(facts).where(eq(facts.id, gap.factId));
  let nearby: ExpertCard['nearby'] = [];
  try {
    const index = await indexes.get(gap.kb);
    nearby = index.retrieve(gap.question, 3).map((e) => ({ text: e.text, source: e.title ?? e.source }));
  } catch (error) {
    log('warn', 'experts: could not read the KB for a question card', { gapId: gap.id, error: describeError(error) });
  }
  return {
    gapId: gap.id,
    kb: gap.kb,
    question: gap.question,
    state: gap.state as GapState,
    requests: Number(first?.requests ?? 0),
    reply: first?.reply ?? null,
    nearby,
    answer: fact && gap.factId !== null ? { text: fact.text, by: fact.by, factId: gap.factId } : null,
    closedBy: gap.closedBy,
    action,
  };
}

/** What an asker is told when their gap closes: the expert's answer (and when it was given), or "not for the KB". */
export async function noticeText(db: Db, gapId: number, state: GapState, question: string): Promise<string> {
  if (state === 'out_of_scope')
    return `The experts looked at your question “${question}” and marked it as outside what this knowledge base covers, so I won't be able to answer it here.`;
  const [fact] = await db
    .select({ text: facts.text, at: facts.confirmedAt })
    .from(gaps)
    .innerJoin(facts, eq(facts.id, gaps.factId))
    .where(eq(gaps.id, gapId));
  const when = fact?.at ? ` (${expertTitle(new Date(fact.at))})` : '';
  const text = (fact?.text ?? '').replace(/[.\s]+$/, '');
  return `An expert answered your question “${question}”: ${text}${when}. It is now part of the knowledge base, so I can answer it too.`;
}

/** A gap's refusals, newest first (at most `limit`): the questions its page lists, each linking its interaction. */
export async function gapRefusals(db: Db, gapId: number, limit = 50) {
  return db
    .select({ interactionId: interactions.id, question: interactions.question, channel: interactions.channel, at: interactions.createdAt })
    .from(gapMembers)
    .innerJoin(interactions, eq(interactions.id, gapMembers.interactionId))
    .where(eq(gapMembers.gapId, gapId))
    .orderBy(desc(interactions.id))
    .limit(limit);
}

/** The gap a refused interaction was given and its state, or null (not a gap's refusal, or not assigned yet). */
export async function gapOfInteraction(db: Db, interactionId: number): Promise<{ id: number; state: GapState } | null> {
  const [row] = await db
    .select({ id: gaps.id, state: gaps.state })
    .from(gapMembers)
    .innerJoin(gaps, eq(gaps.id, gapMembers.gapId))
    .where(eq(gapMembers.interactionId, interactionId));
  return row ? { id: row.id, state: row.state as GapState } : null;
}
