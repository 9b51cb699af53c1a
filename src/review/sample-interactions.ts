import { and, gte, isNotNull, notInArray, sql } from 'drizzle-orm';

import type { Verdict } from '../core/gate/types.js';
import { chooseSamples, type SampledItem, type SamplingPolicy } from '../core/review/sampling-policy.js';
import type { Db } from '../store/open-store.js';
import { interactions, reviewSamples } from '../store/schema.js';

/**
 * Picks interactions for review by the sampling policy and stores them as
 * review samples. Evaluation runs and refused inputs are never sampled; an
 * interaction sampled before (by any replica) is not sampled again: the
 * unique index decides, so two runs at once cannot both take it.
 */
export async function sampleInteractions(
  db: Db,
  policy: SamplingPolicy,
  options: { since?: Date } = {},
): Promise<(SampledItem & { sampleId: number })[]> {
  const rows = await db
    .select({
      id: interactions.id,
      decision: interactions.decision,
      channel: interactions.channel,
      reason: interactions.reason,
      verdicts: interactions.verdicts,
    })
    .from(interactions)
    .where(
      and(
        isNotNull(interactions.decision),
        notInArray(interactions.channel, ['eval']),
        sql`${interactions.status} = 'done'`,
        sql`not exists (select 1 from ${reviewSamples} where ${reviewSamples.interactionId} = ${interactions.id})`,
        options.since ? gte(interactions.createdAt, options.since) : sql`true`,
      ),
    );
  const chosen = chooseSamples(
    rows.map((r) => ({
      id: r.id,
      decision: r.decision === 'answer' ? 'answer' : 'abstain',
      channel: r.channel,
      reason: r.reason,
      verdicts: (r.verdicts ?? []) as Verdict[],
    })),
    new Set(),
    policy,
  );
  if (chosen.length === 0) return [];
  const inserted = await db
    .insert(reviewSamples)
    .values(chosen.map((c) => ({ interactionId: c.id, stratum: c.stratum, nearness: c.nearness })))
    .onConflictDoNothing()
    .returning({ sampleId: reviewSamples.id, interactionId: reviewSamples.interactionId });
  const byInteraction = new Map(inserted.map((r) => [r.interactionId, r.sampleId]));
  return chosen.flatMap((c) => (byInteraction.has(c.id) ? [{ ...c, sampleId: byInteraction.get(c.id) as number }] : []));
}
