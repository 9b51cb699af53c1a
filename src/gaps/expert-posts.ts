import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';

import type { ExpertsEntry } from '../config/experts-setting.js';
import { describeError } from '../kernel/errors.js';
import { gaps, knowledgeBases } from '../store/schema.js';
import { tellAskers } from './asker-notices.js';
import { shownGap, type DeskContext } from './expert-desk-context.js';
import type { ExpertCard } from './expert-types.js';
import { reopenDueGaps } from './reopen-due-gaps.js';
import { syncGaps } from './sync-gaps.js';

/** A replica posting a gap holds it this long; after that another may post it. */
const POST_CLAIM_MS = 60_000;

/** Posts a gap to its KB's experts on every attached channel with a place for it, once (a claim decides). */
export async function postGap(ctx: DeskContext, gapId: number): Promise<ExpertCard | null> {
  if (!(await claimPost(ctx, gapId))) return null;
  const shown = (await shownGap(ctx, gapId))?.card;
  const entry = shown && ctx.entryOf(shown.kb);
  const refs = shown && entry ? await postEverywhere(ctx, entry, shown) : [];
  await ctx.db
    .update(gaps)
    .set({ posts: refs, postClaimedAt: refs.length > 0 ? ctx.now() : null })
    .where(eq(gaps.id, gapId));
  if (refs.length > 0) ctx.log('info', 'experts: question posted', { gapId, posts: refs.length });
  return refs.length > 0 ? (shown ?? null) : null;
}

/** Claims an asked gap not posted yet (or whose claim has lapsed) for this replica to post; false when it may not. */
async function claimPost(ctx: DeskContext, gapId: number): Promise<boolean> {
  const claimed = await ctx.db
    .update(gaps)
    .set({ postClaimedAt: ctx.now() })
    .where(
      and(
        eq(gaps.id, gapId),
        eq(gaps.state, 'asked'),
        sql`${gaps.posts} = '[]'::jsonb`,
        or(isNull(gaps.postClaimedAt), lt(gaps.postClaimedAt, new Date(ctx.now().getTime() - POST_CLAIM_MS))),
      ),
    )
    .returning({ id: gaps.id });
  return claimed.length > 0;
}

/** The card posted on every attached channel; returns the refs of the posts made (a channel that fails is logged). */
async function postEverywhere(ctx: DeskContext, entry: ExpertsEntry, card: ExpertCard): Promise<string[]> {
  const refs: string[] = [];
  for (const surface of ctx.surfaces.values()) {
    try {
      const ref = await surface.post(entry, card);
      if (ref !== null) refs.push(ref);
    } catch (error) {
      ctx.log('error', `${surface.platform}: could not post a question to experts`, { gapId: card.gapId, error: describeError(error) });
    }
  }
  return refs;
}

/** Re-renders a gap's posts (best effort: a post that cannot be updated stays as it was); returns what they show. */
export async function refreshPosts(ctx: DeskContext, gapId: number): Promise<ExpertCard | null> {
  const shown = await shownGap(ctx, gapId);
  if (!shown) return null;
  for (const ref of shown.gap.posts) {
    const surface = ctx.surfaces.get(ref.split(':')[0] ?? '');
    await surface?.update(ref, shown.card).catch((error: unknown) => {
      ctx.log('warn', `${surface.platform}: could not update an experts' post`, { gapId, error: describeError(error) });
    });
  }
  return shown.card;
}

/** Posts the asked gaps still waiting for a post and tells the askers of closed gaps not told yet. */
export async function deliverWaiting(ctx: DeskContext): Promise<{ posted: number; told: number }> {
  // Refusals get their gaps here too, and answers due for re-confirmation reopen theirs, so gap metrics and the
  // report stay current without anyone looking.
  for (const entry of ctx.experts) {
    const index = await ctx.indexes.get(entry.kb).catch(() => null); // a KB not ingested yet has no gaps
    if (!index) continue;
    await syncGaps(ctx.db, index, { now: ctx.now() });
    await reopenDueGaps(ctx.db, index.kbId, entry.reconfirmDays, ctx.now());
  }
  const waiting = await ctx.db
    .select({ id: gaps.id, kb: knowledgeBases.name })
    .from(gaps)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, gaps.kbId))
    .where(and(eq(gaps.state, 'asked'), sql`${gaps.posts} = '[]'::jsonb`))
    .limit(50);
  let posted = 0;
  if (ctx.surfaces.size > 0) for (const gap of waiting) if (ctx.entryOf(gap.kb) && (await postGap(ctx, gap.id))) posted += 1;
  const told = await tellAskers(ctx);
  return { posted, told };
}
