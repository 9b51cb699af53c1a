import { eq, inArray } from 'drizzle-orm';

import type { EvidenceView } from '../ask/decision.js';
import type { NearMiss } from '../core/answer/near-misses.js';
import type { Verdict } from '../core/gate/types.js';
import type { Db } from '../store/open-store.js';
import { interactions, knowledgeBases, reviewSamples } from '../store/schema.js';

/** What a reviewer (or a judge) sees of a sampled interaction. */
export interface ReviewItem {
  readonly sampleId: number;
  readonly interactionId: number;
  readonly channel: string;
  /** The knowledge base that answered (its name), when the interaction names one. */
  readonly kb: string | null;
  readonly askedAt: Date;
  readonly question: string;
  /** 'unknown' for an imported reply: whether it declined is what its labels say. */
  readonly decision: 'answer' | 'abstain' | 'unknown';
  /** The right decision when known (imported benchmark replies), else null. */
  readonly expected: 'answer' | 'abstain' | null;
  /** The answer, or the refusal text the user saw. */
  readonly reply: string;
  /** The deciding reason code of a refusal. */
  readonly reason: string | null;
  readonly verdicts: readonly Verdict[];
  readonly evidence: readonly EvidenceView[];
  /** A refusal's best retrieved facts and why each fell short; null for answers and rows recorded before it was kept. */
  readonly considered: readonly NearMiss[] | null;
  readonly postRef: string | null;
  readonly stratum: string;
}

const COLUMNS = {
  sampleId: reviewSamples.id,
  interactionId: interactions.id,
  channel: interactions.channel,
  kb: knowledgeBases.name,
  askedAt: interactions.createdAt,
  question: interactions.question,
  decision: interactions.decision,
  expected: interactions.expectedDecision,
  answer: interactions.answer,
  reason: interactions.reason,
  verdicts: interactions.verdicts,
  evidence: interactions.evidence,
  considered: interactions.considered,
  postRef: reviewSamples.postRef,
  stratum: reviewSamples.stratum,
};

/** The review items for these samples (unknown ids are left out). */
export async function loadReviewItems(db: Db, sampleIds: readonly number[]): Promise<ReviewItem[]> {
  if (sampleIds.length === 0) return [];
  const rows = await db
    .select(COLUMNS)
    .from(reviewSamples)
    .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(inArray(reviewSamples.id, [...sampleIds]))
    .orderBy(reviewSamples.id);
  return rows.map(toItem);
}

/** The sample a posted card belongs to ("channel|ts" in Slack, "conversation|activity" in Teams). */
export async function findSampleByPost(db: Db, postRef: string): Promise<ReviewItem | null> {
  const [row] = await db
    .select(COLUMNS)
    .from(reviewSamples)
    .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(eq(reviewSamples.postRef, postRef));
  return row ? toItem(row) : null;
}

function toItem(row: {
  sampleId: number;
  interactionId: number;
  channel: string;
  kb: string | null;
  askedAt: Date;
  question: string;
  decision: string | null;
  expected: string | null;
  answer: string | null;
  reason: string | null;
  verdicts: unknown;
  evidence: unknown;
  considered: readonly NearMiss[] | null;
  postRef: string | null;
  stratum: string;
}): ReviewItem {
  return {
    ...row,
    decision: row.decision === 'answer' || row.decision === 'abstain' ? row.decision : 'unknown',
    expected: row.expected === 'answer' || row.expected === 'abstain' ? row.expected : null,
    reply: row.answer ?? '',
    verdicts: (row.verdicts ?? []) as Verdict[],
    evidence: (row.evidence ?? []) as EvidenceView[],
  };
}
