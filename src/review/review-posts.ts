import { and, eq, isNull } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { reviewSamples } from '../store/schema.js';
import { loadReviewItems, type ReviewItem } from './review-items.js';

/** Samples not posted anywhere yet, oldest first. */
export async function unpostedItems(db: Db, limit: number): Promise<ReviewItem[]> {
  const pending = await db
    .select({ id: reviewSamples.id })
    .from(reviewSamples)
    .where(isNull(reviewSamples.postedTo))
    .orderBy(reviewSamples.id)
    .limit(limit);
  return loadReviewItems(
    db,
    pending.map((p) => p.id),
  );
}

/**
 * Claims a sample for one platform's review channel before its card is sent,
 * so that two replicas (or Slack and Teams) never post one card twice; false
 * when someone else claimed it first.
 */
export async function claimSamplePost(db: Db, sampleId: number, postedTo: string): Promise<boolean> {
  const claimed = await db
    .update(reviewSamples)
    .set({ postedTo })
    .where(and(eq(reviewSamples.id, sampleId), isNull(reviewSamples.postedTo)))
    .returning({ id: reviewSamples.id });
  return claimed.length > 0;
}

/** Saves the posted card's ref, by which labels on it find their sample. */
export async function saveSamplePost(db: Db, sampleId: number, postRef: string): Promise<void> {
  await db.update(reviewSamples).set({ postRef }).where(eq(reviewSamples.id, sampleId));
}

/** Gives a claim back after a failed post, so that a later run posts the card. */
export async function releaseSamplePost(db: Db, sampleId: number): Promise<void> {
  await db.update(reviewSamples).set({ postedTo: null }).where(eq(reviewSamples.id, sampleId));
}
