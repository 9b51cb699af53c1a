import { and, eq, sql } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { interactions, knowledgeBases } from '../store/schema.js';
import type { Decision } from './decision.js';
import { decisionColumns } from './record-interaction.js';

/**
 * Claim-first idempotency for chat channels, on the interactions table's
 * unique (channel, event_id) index: the first delivery of an event inserts a
 * `pending` row *before* anything is asked or posted; every other delivery, on
 * this replica or another, finds the row there and stops. Both chat channels
 * use it through `InteractionClaims`.
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

/** How a claimed row that got no decision ends: the input was refused, or something failed. */
export interface ClaimClosing {
  readonly status: 'rejected' | 'failed';
  readonly reply: string;
  readonly traceId: string;
  readonly latencyMs: number;
}

/** The claim operations a chat channel calls (it never sees the database). */
export interface InteractionClaims {
  /** Inserts the pending row; its id, or null when the event was claimed before. */
  claim(claim: InteractionClaim): Promise<number | null>;
  /** The row an earlier try of this event claimed (a retry after a crash answers into it), or null. */
  find(channel: string, eventId: string): Promise<number | null>;
  /** Fills the claimed row with the decision. */
  complete(id: number, decision: Decision): Promise<void>;
  /** Closes a claimed row that got no decision. */
  close(id: number, outcome: ClaimClosing): Promise<void>;
}

/** The production claims, on the interactions table. */
export function createInteractionClaims(db: Db): InteractionClaims {
  return {
    claim: (claim) => claimInteraction(db, claim),
    async find(channel, eventId) {
      const [row] = await db
        .select({ id: interactions.id })
        .from(interactions)
        .where(and(eq(interactions.channel, channel), eq(interactions.eventId, eventId)));
      return row?.id ?? null;
    },
    complete: (id, decision) => completeInteraction(db, id, decision),
    close: (id, outcome) => closeInteraction(db, id, outcome),
  };
}

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
export async function closeInteraction(db: Db, id: number, outcome: ClaimClosing): Promise<void> {
  await db
    .update(interactions)
    .set({ status: outcome.status, answer: outcome.reply, traceId: outcome.traceId, latencyMs: outcome.latencyMs })
    .where(eq(interactions.id, id));
}
