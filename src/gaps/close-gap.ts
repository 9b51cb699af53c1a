import { eq } from 'drizzle-orm';

import { checkedAnswerText } from '../kb/expert-answer-text.js';
import { addExpertFact } from '../kb/expert-facts.js';
import { describeError } from '../kernel/errors.js';
import type { Db } from '../store/open-store.js';
import { gaps } from '../store/schema.js';
import { instruments } from '../telemetry/instruments.js';
import { tellAskers } from './asker-notices.js';
import { isExpertOf, type DeskContext } from './expert-desk-context.js';
import { refreshPosts } from './expert-posts.js';
import type { CloseOutcome, GapState, Person } from './expert-types.js';
import { readGap, type GapRow } from './gap-reads.js';

/** Who closed a gap, as people read it. */
const who = (expert: Person) => expert.name?.trim() || expert.user;

/** An expert's answer: a new fact of the KB, the gap answered, its askers told. */
export async function answerGap(
  ctx: DeskContext,
  { gapId, expert, text }: { gapId: number; expert: Person; text: string },
): Promise<CloseOutcome> {
  const checked = checkedAnswerText(text);
  return closeGap(ctx, gapId, expert, async (t, gap) => {
    const added = await addExpertFact(t, {
      kb: gap.kb,
      text: checked,
      question: gap.question,
      expert: `${expert.platform}:${expert.user}`,
      name: who(expert),
      at: ctx.now(),
    });
    await t
      .update(gaps)
      .set({ state: 'answered', factId: added.factId, closedBy: who(expert), closedAt: ctx.now(), reopenedBecause: null, reopenedAt: null })
      .where(eq(gaps.id, gapId));
    return { kind: 'answered', gapId, factId: added.factId, version: added.version };
  });
}

/** "Not for the KB": the gap is out of scope; its askers are told. */
export function dismissGap(ctx: DeskContext, { gapId, expert }: { gapId: number; expert: Person }): Promise<CloseOutcome> {
  return closeGap(ctx, gapId, expert, async (t) => {
    await t
      .update(gaps)
      .set({ state: 'out_of_scope', closedBy: who(expert), closedAt: ctx.now(), reopenedBecause: null, reopenedAt: null })
      .where(eq(gaps.id, gapId));
    return { kind: 'dismissed', gapId };
  });
}

/** Closes a gap with `apply`, once (the gap's row is locked; a closed gap stays as it was), when the person is its expert. */
async function closeGap(
  ctx: DeskContext,
  gapId: number,
  expert: Person,
  apply: (t: Db, gap: GapRow) => Promise<CloseOutcome>,
): Promise<CloseOutcome> {
  const gap = await readGap(ctx.db, gapId);
  if (!gap) return { kind: 'no_gap' };
  const entry = ctx.entryOf(gap.kb);
  if (!entry || !(await isExpertOf(ctx, entry, expert))) return { kind: 'not_an_expert' };
  const outcome = await ctx.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [locked] = await t.select({ state: gaps.state, closedBy: gaps.closedBy }).from(gaps).where(eq(gaps.id, gapId)).for('update');
    if (locked && (locked.state === 'answered' || locked.state === 'out_of_scope'))
      return { kind: 'already_closed' as const, gapId, state: locked.state as GapState, by: locked.closedBy };
    return apply(t, gap);
  });
  if (outcome.kind === 'answered' || outcome.kind === 'dismissed') await announceClosed(ctx, gap, expert, outcome.kind);
  return outcome;
}

/** After a close: the time it took recorded, the experts' posts re-rendered and the gap's askers told. */
async function announceClosed(ctx: DeskContext, gap: GapRow, expert: Person, outcome: 'answered' | 'dismissed'): Promise<void> {
  const gapId = gap.id;
  const started = gap.askedAt ?? gap.createdAt;
  instruments.expertAnswerTime().record(Math.max(0, (ctx.now().getTime() - new Date(started).getTime()) / 1000), {
    kb: gap.kb,
    outcome,
  });
  ctx.log('info', 'experts: gap closed', { gapId, outcome, by: `${expert.platform}:${expert.user}` });
  await refreshPosts(ctx, gapId);
  await tellAskers(ctx, [gapId]).catch((error: unknown) =>
    ctx.log('warn', 'experts: could not tell askers', { gapId, error: describeError(error) }),
  );
}
