import { and, desc, eq, sql } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { askerFeedback, interactions, knowledgeBases, reviewSamples } from '../store/schema.js';
import { emitEvaluationResult } from '../telemetry/evaluation-events.js';
import { instruments } from '../telemetry/instruments.js';

export type FeedbackKind = 'helpful' | 'not_helpful';
/** Why a reply was not helpful, as askers choose it. */
export const FEEDBACK_REASONS = ['wrong', 'outdated', 'incomplete', 'did_not_answer', 'other'] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];
/** What a reason reads as on a button or in the console. */
export const FEEDBACK_REASON_TEXT: Readonly<Record<FeedbackReason, string>> = {
  wrong: 'Wrong',
  outdated: 'Out of date',
  incomplete: 'Incomplete',
  did_not_answer: "Didn't answer my question",
  other: 'Other',
};
/** A comment is a sentence or two: longer text is cut here. */
export const MAX_FEEDBACK_COMMENT = 1000;
/** The stratum of a review sample taken because its asker said the reply was not helpful. */
export const NOT_HELPFUL_STRATUM = 'asker_not_helpful';

export interface FeedbackEvent {
  readonly interactionId: number;
  /** "<platform>:<hashed user id>" (see hashUserId): never a raw id. */
  readonly asker: string;
  readonly kind: FeedbackKind;
  readonly reason?: FeedbackReason | undefined;
  readonly comment?: string | undefined;
  /** The channel's id for this press: a redelivery with the same id is recorded once. */
  readonly eventId?: string | undefined;
}

export type FeedbackOutcome = 'recorded' | 'duplicate' | 'no_interaction';

/**
 * Records one asker's feedback on a reply (append-only; their latest event is
 * their feedback). A reply found not helpful is sampled for reviewers at once
 * (whatever the sampling rates), so a person looks at every reply an asker
 * disliked, and its label can calibrate the gate. Counted in `candor.feedback`,
 * and emitted in the reply's trace as a `gen_ai.evaluation.result`.
 */
export async function recordFeedback(db: Db, event: FeedbackEvent): Promise<FeedbackOutcome> {
  const [interaction] = await db
    .select({ decision: interactions.decision, kb: knowledgeBases.name, channel: interactions.channel, traceId: interactions.traceId })
    .from(interactions)
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(eq(interactions.id, event.interactionId));
  if (!interaction || interaction.decision === null) return 'no_interaction';
  const comment =
    event.comment
      ?.replace(/\u0000/g, '')
      .trim()
      .slice(0, MAX_FEEDBACK_COMMENT) || null;
  const outcome = await db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ kind: askerFeedback.kind })
      .from(askerFeedback)
      .where(and(eq(askerFeedback.interactionId, event.interactionId), eq(askerFeedback.asker, event.asker)))
      .orderBy(desc(askerFeedback.id))
      .limit(1);
    const inserted = await tx
      .insert(askerFeedback)
      .values({
        interactionId: event.interactionId,
        asker: event.asker,
        kind: event.kind,
        reason: event.kind === 'not_helpful' ? (event.reason ?? null) : null,
        comment: event.kind === 'not_helpful' ? comment : null,
        eventId: event.eventId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: askerFeedback.id });
    if (inserted.length === 0) return 'duplicate' as const;
    // A reason added to a 👎 (or the same button pressed again) changes no one's feedback: counted once.
    if (previous?.kind === event.kind) return 'amended' as const;
    if (event.kind === 'not_helpful')
      await tx
        .insert(reviewSamples)
        .values({ interactionId: event.interactionId, stratum: NOT_HELPFUL_STRATUM, nearness: null })
        .onConflictDoNothing();
    return 'recorded' as const;
  });
  // In the reply's trace: each new feedback, and a reason added to a 👎 (not the same button pressed again).
  if (outcome === 'recorded' || (outcome === 'amended' && event.kind === 'not_helpful' && (event.reason || comment)))
    emitEvaluationResult(
      { interactionId: event.interactionId, traceId: interaction.traceId },
      {
        name: 'asker_feedback',
        scoreLabel: event.kind,
        scoreValue: event.kind === 'helpful' ? 1 : 0,
        explanation: event.kind === 'not_helpful' && event.reason ? FEEDBACK_REASON_TEXT[event.reason] : undefined,
        userText: event.kind === 'not_helpful' ? comment : null,
        annotator: event.asker,
        annotatorType: 'asker',
        via: 'feedback',
      },
    );
  if (outcome === 'amended') return 'recorded';
  if (outcome === 'recorded')
    instruments
      .feedback()
      .add(1, { kind: event.kind, kb: interaction.kb ?? 'unknown', decision: interaction.decision, channel: interaction.channel });
  return outcome;
}

/** Every asker's current feedback on one interaction (the console's interaction page). */
export async function feedbackOn(
  db: Db,
  interactionId: number,
): Promise<{ asker: string; kind: FeedbackKind; reason: FeedbackReason | null; comment: string | null; at: string }[]> {
  const rows = await db.execute(sql`
    select distinct on (asker) asker, kind, reason, comment, created_at
    from ${askerFeedback} where interaction_id = ${interactionId}
    order by asker, id desc`);
  return (rows as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    asker: String(r.asker),
    kind: r.kind as FeedbackKind,
    reason: (r.reason ?? null) as FeedbackReason | null,
    comment: (r.comment ?? null) as string | null,
    at: new Date(r.created_at as string).toISOString(),
  }));
}

/** The channels whose replies carry 👍/👎 buttons: only their replies can be rated (not HTTP, CLI, console or eval ones). */
export const RATEABLE_CHANNELS = ['slack', 'teams'] as const;

/**
 * Feedback since `since` (current feedback per asker and interaction), for
 * the console overview: how many replies got any, and how many were found
 * helpful / not helpful. `rate` is the share of the answered and refused
 * replies in the window that could be rated (RATEABLE_CHANNELS) that got feedback.
 */
export async function feedbackSummary(
  db: Db,
  options: { since: Date; kbId?: number | undefined },
): Promise<{ replies: number; withFeedback: number; helpful: number; notHelpful: number; rate: number }> {
  const kb = options.kbId === undefined ? sql`true` : sql`i.kb_id = ${options.kbId}`;
  const rateable = sql.join(
    RATEABLE_CHANNELS.map((c) => sql`${c}`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    with current as (
      select distinct on (f.interaction_id, f.asker) f.interaction_id, f.kind
      from ${askerFeedback} f join ${interactions} i on i.id = f.interaction_id
      where i.created_at >= ${options.since.toISOString()} and ${kb}
      order by f.interaction_id, f.asker, f.id desc
    )
    select
      (select count(*)::int from ${interactions} i where i.created_at >= ${options.since.toISOString()} and i.decision is not null
        and i.channel in (${rateable}) and ${kb}) as replies,
      (select count(distinct interaction_id)::int from current) as with_feedback,
      (select count(*)::int from current where kind = 'helpful') as helpful,
      (select count(*)::int from current where kind = 'not_helpful') as not_helpful`)) as unknown as {
    rows: { replies: number; with_feedback: number; helpful: number; not_helpful: number }[];
  };
  const row = result.rows[0] ?? { replies: 0, with_feedback: 0, helpful: 0, not_helpful: 0 };
  const replies = Number(row.replies);
  const withFeedback = Number(row.with_feedback);
  return {
    replies,
    withFeedback,
    helpful: Number(row.helpful),
    notHelpful: Number(row.not_helpful),
    rate: replies === 0 ? 0 : withFeedback / replies,
  };
}
