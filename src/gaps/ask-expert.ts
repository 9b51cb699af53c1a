import { and, eq } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { facts, gapMembers, gapRequests, gaps, interactions, knowledgeBases } from '../store/schema.js';
import { instruments } from '../telemetry/instruments.js';
import type { DeskContext } from './expert-desk-context.js';
import { postGap, refreshPosts } from './expert-posts.js';
import type { AskExpertOutcome, ExpertDesk } from './expert-types.js';
import { readGap } from './gap-reads.js';
import { questionKey, syncGaps } from './sync-gaps.js';

type AskRequest = Parameters<ExpertDesk['askExpert']>[0];

/** "Ask an expert" on a reply: joins (or opens) the question's gap, records the request and posts the gap to experts once. */
export async function askExpert(ctx: DeskContext, request: AskRequest): Promise<AskExpertOutcome> {
  const { db, now } = ctx;
  const interaction = await readInteraction(db, request.interactionId);
  if (!interaction || interaction.decision === null || interaction.kbId === null) return { kind: 'no_interaction' };
  const entry = ctx.entryOf(interaction.kb);
  if (!entry) return { kind: 'no_experts' };
  const index = await ctx.indexes.get(interaction.kb);
  await syncGaps(db, index, { now: now() });
  const gapId = await gapOf(db, { id: interaction.id, kbId: interaction.kbId, question: interaction.question });
  const inserted = await db
    .insert(gapRequests)
    .values({ gapId, interactionId: interaction.id, asker: request.asker, target: request.target ?? null })
    .onConflictDoNothing()
    .returning({ id: gapRequests.id });
  const metric = (outcome: string) => instruments.expertRequests().add(1, { kb: interaction.kb, via: request.via, outcome });
  if (inserted.length === 0) {
    metric('duplicate');
    return { kind: 'already_asked', gapId };
  }
  const gap = await readGap(db, gapId);
  if (gap?.state === 'answered' || gap?.state === 'out_of_scope') {
    // Closed before this asker came: they hear it now, not later.
    await db.update(gapRequests).set({ notifiedAt: now() }).where(eq(gapRequests.interactionId, interaction.id));
    metric(gap.state);
    if (gap.state === 'out_of_scope') return { kind: 'out_of_scope', gapId };
    return answeredOutcome(db, gapId, gap.factId as number);
  }
  // Reworded on the gap: the experts see the first question they were asked.
  if (gap?.state === 'open')
    await db
      .update(gaps)
      .set({ state: 'asked', askedAt: now(), question: interaction.question })
      .where(and(eq(gaps.id, gapId), eq(gaps.state, 'open')));
  metric('asked');
  // Posted now, or already posted: then the post shows one more asker.
  const shown = (await postGap(ctx, gapId)) ?? (await refreshPosts(ctx, gapId));
  const requests = shown?.requests ?? 1;
  return { kind: 'asked', gapId, requests };
}

/** The interaction a button was pressed on, with its KB's name. */
async function readInteraction(db: Db, interactionId: number) {
  const [interaction] = await db
    .select({
      id: interactions.id,
      kbId: interactions.kbId,
      kb: knowledgeBases.name,
      question: interactions.question,
      decision: interactions.decision,
    })
    .from(interactions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(eq(interactions.id, interactionId));
  return interaction;
}

/** The gap an interaction belongs to, once it has been given one (in a transaction). */
async function gapOf(db: Db, interaction: { id: number; kbId: number; question: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [member] = await t.select({ gapId: gapMembers.gapId }).from(gapMembers).where(eq(gapMembers.interactionId, interaction.id));
    if (member) return member.gapId;
    // An answer found not helpful (answers are not gaps until someone asks): the gap worded the same, or a new one.
    const same = await t
      .select({ gapId: gapMembers.gapId, question: interactions.question })
      .from(gapMembers)
      .innerJoin(gaps, eq(gaps.id, gapMembers.gapId))
      .innerJoin(interactions, eq(interactions.id, gapMembers.interactionId))
      .where(eq(gaps.kbId, interaction.kbId));
    const match = same.find((s) => questionKey(s.question) === questionKey(interaction.question));
    const id =
      match?.gapId ??
      ((await t.insert(gaps).values({ kbId: interaction.kbId, question: interaction.question }).returning({ id: gaps.id }))[0]
        ?.id as number);
    await t.insert(gapMembers).values({ interactionId: interaction.id, gapId: id }).onConflictDoNothing();
    return id;
  });
}

/** What an asker of an answered gap hears at once: its fact's text and when it was confirmed. */
async function answeredOutcome(db: Db, gapId: number, factId: number): Promise<AskExpertOutcome> {
  const [fact] = await db.select({ text: facts.text, at: facts.confirmedAt }).from(facts).where(eq(facts.id, factId));
  return { kind: 'answered', gapId, text: fact?.text ?? '', at: fact?.at ? new Date(fact.at).toISOString() : null };
}
