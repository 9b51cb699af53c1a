import { desc, eq, sql, type SQL } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { agreementReports, interactions, knowledgeBases, reviewSamples } from '../store/schema.js';
import { rows } from './sql-parts.js';

/*
 * What the console reads besides the overview (overview-query.ts), the interaction list (interaction-list.ts)
 * and the review queue (review-queue.ts), in SQL both PGlite and PostgreSQL run. Evaluation asks are left out.
 */

/** The values the interaction filters offer. */
export async function filterChoices(db: Db) {
  const distinct = async (column: SQL) =>
    (
      await rows<{ v: string }>(
        db,
        sql`select distinct ${column} as v from ${interactions} where ${column} is not null and ${interactions.channel} <> 'eval' order by 1 limit 100`,
      )
    ).map((r) => r.v);
  return {
    reasons: await distinct(sql`${interactions.reason}`),
    channels: await distinct(sql`${interactions.channel}`),
    kbs: (await db.select({ name: knowledgeBases.name }).from(knowledgeBases).orderBy(knowledgeBases.name)).map((k) => k.name),
  };
}

export async function findInteraction(db: Db, id: number) {
  const [row] = await db
    .select({ interaction: interactions, kb: knowledgeBases.name, sampleId: reviewSamples.id, stratum: reviewSamples.stratum })
    .from(interactions)
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .leftJoin(reviewSamples, eq(reviewSamples.interactionId, interactions.id))
    .where(eq(interactions.id, id));
  return row ?? null;
}

/** The newest review samples with their interactions. */
export async function reviewSamplesPage(db: Db, limit = 100) {
  return db
    .select({
      sampleId: reviewSamples.id,
      interactionId: interactions.id,
      stratum: reviewSamples.stratum,
      postedTo: reviewSamples.postedTo,
      createdAt: reviewSamples.createdAt,
      question: interactions.question,
      decision: interactions.decision,
      reason: interactions.reason,
    })
    .from(reviewSamples)
    .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
    .orderBy(desc(reviewSamples.id))
    .limit(limit);
}

/** Stored agreement reports, newest first. */
export async function agreementHistory(db: Db, limit = 60) {
  return db
    .select({
      id: agreementReports.id,
      runKey: agreementReports.runKey,
      report: agreementReports.report,
      createdAt: agreementReports.createdAt,
    })
    .from(agreementReports)
    .orderBy(desc(agreementReports.createdAt), desc(agreementReports.id))
    .limit(limit);
}
