import { and, eq, inArray, isNull, like, lte } from 'drizzle-orm';

import { EXPERT_SOURCE_PREFIX } from '../kb/knowledge-index.js';
import type { Db } from '../store/open-store.js';
import { facts, gaps } from '../store/schema.js';

/** Why a gap an expert had answered is open again (stored in `gaps.reopened_because`). */
export type ReopenReason = 'reconfirmation_due' | 'fact_retired';

/**
 * Opens again the answered gaps of a KB whose expert fact is due for re-confirmation: `reconfirmDays` after it
 * was given or last re-confirmed the index stops using it (KnowledgeIndexCache), so nothing answers the gap any
 * more. The fact stays the gap's `fact_id`, so re-confirming it answers the gap again (reviseExpertFact).
 * Returns how many gaps it reopened; none without a reconfirmDays.
 */
export async function reopenDueGaps(db: Db, kbId: number, reconfirmDays: number | undefined, now: Date): Promise<number> {
  if (reconfirmDays === undefined) return 0;
  const confirmedBy = new Date(now.getTime() - reconfirmDays * 86_400_000);
  const due = db
    .select({ id: facts.id })
    .from(facts)
    .where(
      and(
        eq(facts.kbId, kbId),
        isNull(facts.retiredInVersion),
        like(facts.source, `${EXPERT_SOURCE_PREFIX}%`),
        lte(facts.confirmedAt, confirmedBy),
      ),
    );
  const reopened = await db
    .update(gaps)
    .set({ state: 'open', reopenedBecause: 'reconfirmation_due' satisfies ReopenReason, reopenedAt: now })
    .where(and(eq(gaps.kbId, kbId), eq(gaps.state, 'answered'), inArray(gaps.factId, due)))
    .returning({ id: gaps.id });
  return reopened.length;
}
