import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';

import { describeError } from '../kernel/errors.js';
import { gapRequests, gaps } from '../store/schema.js';
import type { DeskContext } from './expert-desk-context.js';
import type { GapState } from './expert-types.js';
import { noticeText } from './gap-reads.js';

/** Tells the askers of closed gaps (once each: the notice is claimed before it is sent); returns how many were told. */
export async function tellAskers(ctx: DeskContext, gapIds?: readonly number[]): Promise<number> {
  const { db, log } = ctx;
  const pending = await db
    .select({ id: gapRequests.id, gapId: gapRequests.gapId, target: gapRequests.target, state: gaps.state, question: gaps.question })
    .from(gapRequests)
    .innerJoin(gaps, eq(gaps.id, gapRequests.gapId))
    .where(
      and(
        isNull(gapRequests.notifiedAt),
        isNotNull(gapRequests.target),
        inArray(gaps.state, ['answered', 'out_of_scope']),
        gapIds ? inArray(gapRequests.gapId, [...gapIds]) : sql`true`,
      ),
    )
    .limit(200);
  let told = 0;
  for (const request of pending) {
    const target = request.target as Record<string, unknown>;
    const surface = ctx.surfaces.get(String(target.platform));
    if (!surface) continue; // this process has no channel for it (the CLI): the server tells them
    const claimed = await db
      .update(gapRequests)
      .set({ notifiedAt: ctx.now() })
      .where(and(eq(gapRequests.id, request.id), isNull(gapRequests.notifiedAt)))
      .returning({ id: gapRequests.id });
    if (claimed.length === 0) continue;
    const text = await noticeText(db, request.gapId, request.state as GapState, request.question);
    try {
      await surface.tell(target, text);
      told += 1;
    } catch (error) {
      // Told at most once: a notice that failed is logged, not repeated into a thread that may have got it.
      log('warn', `${surface.platform}: could not tell an asker about their question`, {
        gapId: request.gapId,
        error: describeError(error),
      });
    }
  }
  return told;
}
