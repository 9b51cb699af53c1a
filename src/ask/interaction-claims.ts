import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';

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
  /** The chat thread it was asked in (see ThreadQuestion); absent outside threads. */
  readonly threadRef?: string | undefined;
}

/** A follow-up read with its thread: what the gate judged, made of what was typed. */
export interface Understood {
  /** The standalone question the gate judged. */
  readonly question: string;
  /** What the person typed. */
  readonly typed: string;
  /** 'rewritten' by the model, or 'borrowed' the thread's topic words. */
  readonly by: 'rewritten' | 'borrowed';
}

/** Where to look for a thread's earlier question. */
export interface ThreadLookup {
  readonly channel: string;
  readonly threadRef: string;
  /** This question's own event: never its own earlier question (a retry finds its own row). */
  readonly eventId: string;
  /** Only a question asked this recently counts (a direct message's running conversation); unset: any. */
  readonly withinMs?: number | undefined;
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
  /** Fills the claimed row with the decision (and, for a follow-up, the standalone question it judged). */
  complete(id: number, decision: Decision, understood?: Understood): Promise<void>;
  /** The question the bot last answered or refused in a thread (as judged), or null when it has not replied there. */
  earlier(lookup: ThreadLookup): Promise<string | null>;
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
    complete: (id, decision, understood) => completeInteraction(db, id, decision, understood),
    async earlier(lookup) {
      const [row] = await db
        .select({ question: interactions.question })
        .from(interactions)
        .where(
          and(
            eq(interactions.channel, lookup.channel),
            eq(interactions.threadRef, lookup.threadRef),
            eq(interactions.status, 'done' satisfies ClaimStatus),
            ne(interactions.eventId, lookup.eventId),
            lookup.withinMs === undefined ? undefined : gt(interactions.createdAt, new Date(Date.now() - lookup.withinMs)),
          ),
        )
        .orderBy(desc(interactions.id))
        .limit(1);
      return row?.question ?? null;
    },
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
      threadRef: claim.threadRef ?? null,
      status: 'pending' satisfies ClaimStatus,
    })
    .onConflictDoNothing()
    .returning({ id: interactions.id });
  return rows[0]?.id ?? null;
}

/** Fills the claimed row with the decision (what the shared recorder would have written). */
export async function completeInteraction(db: Db, id: number, decision: Decision, understood?: Understood): Promise<void> {
  await db
    .update(interactions)
    .set({
      status: 'done' satisfies ClaimStatus,
      kbId: sql`(select ${knowledgeBases.id} from ${knowledgeBases} where ${knowledgeBases.name} = ${decision.kb.name})`,
      ...decisionColumns(decision),
      traceId: decision.traceId,
      latencyMs: decision.latencyMs,
      ...(understood ? { question: understood.question, typedQuestion: understood.typed, understoodBy: understood.by } : {}),
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
