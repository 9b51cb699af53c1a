import { eq, sql } from 'drizzle-orm';

import type { Decision } from '../../ask/decision.js';
import { decisionColumns } from '../../ask/record-interaction.js';
import type { Db } from '../../store/open-store.js';
import { interactions, knowledgeBases } from '../../store/schema.js';

/**
 * Claim-first idempotency for chat channels, on the interactions table's
 * unique (channel, event_id) index: the first delivery of an event inserts a
 * `pending` row *before* anything is asked or posted; every other delivery, on
 * this replica or another, finds the row there and stops. No bolt or
 * botbuilder import here: both chat channels use it.
 */
export interface InteractionClaim {
  readonly channel: string;
  readonly eventId: string;
  readonly conversationRef: string;
  /** Already hashed (see hashUserId); never the raw user id. */
  readonly userHash: string | null;
  /** The normalised question (empty when the message held none). */
  readonly question: string;
}

/** Row states this module writes; `done` rows carry a decision. */
export type ClaimStatus = 'pending' | 'done' | 'rejected' | 'failed';

/** Inserts the pending row; returns its id, or null when the event was claimed before. */
export async function claimInteraction(db: Db, claim: InteractionClaim): Promise<number | null> {
  const rows = await db
    .insert(interactions)
    .values({
      channel: claim.channel,
      eventId: claim.eventId,
      conversationRef: claim.conversationRef,
      userHash: claim.userHash,
      question: claim.question,
      status: 'pending' satisfies ClaimStatus,
    })
    .onConflictDoNothing()
    .returning({ id: interactions.id });
  return rows[0]?.id ?? null;
}

/** Fills the claimed row with the decision (what the shared recorder would have written). */
export async function completeInteraction(db: Db, id: number, decision: Decision): Promise<void> {
  await db
    .update(interactions)
    .set({
      status: 'done' satisfies ClaimStatus,
      kbId: sql`(select ${knowledgeBases.id} from ${knowledgeBases} where ${knowledgeBases.name} = ${decision.kb.name})`,
      ...decisionColumns(decision),
      traceId: decision.traceId,
      latencyMs: decision.latencyMs,
    })
    .where(eq(interactions.id, id));
}

/** Closes a claimed row that got no decision: the input was refused, or something failed. */
export async function closeInteraction(
  db: Db,
  id: number,
  outcome: { status: 'rejected' | 'failed'; reply: string; traceId: string; latencyMs: number },
): Promise<void> {
  await db
    .update(interactions)
    .set({ status: outcome.status, answer: outcome.reply, traceId: outcome.traceId, latencyMs: outcome.latencyMs })
    .where(eq(interactions.id, id));
}
