import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';

import { createGroupCommit, type GroupCommitOptions } from '../store/group-commit.js';
import type { Db } from '../store/open-store.js';
import { interactions, knowledgeBases } from '../store/schema.js';
import type { AskRequest } from './ask-request.js';
import type { Decided, Decision } from './decision.js';
import { decisionColumns, insertInteractions, type InteractionRow, type Statements } from './interaction-rows.js';

/**
 * The one writer of interaction rows, used by the ask path only (src/ask): `ask()` records a new row per ask;
 * a chat event's row is claimed first and then completed or closed by the chat ask (chat-ask.ts).
 */
export interface InteractionRecorder {
  /** Inserts a decided row; its id, or null when its event was recorded before. */
  record(
    request: AskRequest,
    question: string,
    decision: Decided,
    kbId: number | null,
    traceId: string,
    latencyMs: number,
  ): Promise<number | null>;
  /** Inserts a chat event's pending row; its id, or null when the event was claimed before. */
  claim(claim: InteractionClaim): Promise<number | null>;
  /** Fills a claimed row with the decision (and, for a follow-up, the standalone question it judged). */
  complete(id: number, decision: Decision, understood?: Understood): Promise<void>;
  /** Closes a claimed row that got no decision: the input was refused, or something failed. */
  close(id: number, outcome: ClaimClosing): Promise<void>;
}

/** Hashes user ids so that the store and telemetry never hold them in the clear. */
export function hashUserId(userId: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${userId}`).digest('hex').slice(0, 32);
}

/**
 * `record` writes one row per ask. With an event id the write is idempotent: a retried
 * delivery of the same event finds the row already there and returns null.
 * Concurrent asks share one multi-row insert (group commit); each resolves
 * only once its own row is stored.
 */
export function createInteractionRecorder(db: Db, salt: string, options: GroupCommitOptions = {}): InteractionRecorder {
  const statements: Statements = { db, bySize: new Map() };
  const rows = createGroupCommit((batch: readonly InteractionRow[]) => insertInteractions(statements, batch), options);
  return {
    async record(request, question, decision, kbId, traceId, latencyMs) {
      return rows.submit({
        channel: request.channel,
        eventId: request.eventId ?? null,
        conversationRef: request.conversationRef ?? null,
        userHash: request.userId ? hashUserId(request.userId, salt) : null,
        kbId,
        question,
        status: 'done',
        ...decisionColumns(decision),
        traceId,
        latencyMs,
      });
    },
    claim: (claim) => claimInteraction(db, claim),
    complete: (id, decision, understood) => completeInteraction(db, id, decision, understood),
    close: (id, outcome) => closeInteraction(db, id, outcome),
  };
}

/**
 * Claim-first idempotency for chat channels, on the interactions table's
 * unique (channel, event_id) index: the first delivery of an event inserts a
 * `pending` row *before* anything is asked or posted; every other delivery, on
 * this replica or another, finds the row there and stops. Both chat channels
 * use it through the chat ask (chat-ask.ts).
 */
export interface InteractionClaim {
  readonly channel: string;
  readonly eventId: string;
  readonly conversationRef: string;
  /** Already hashed (see hashUserId); never the raw user id. */
  readonly userHash: string | null;
  /** The normalised question (empty when the message held none). */
  readonly question: string;
  /** The chat thread it was asked in (see ChatThread); absent outside threads. */
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

/** Row states this module writes; `done` rows carry a decision. */
export type ClaimStatus = 'pending' | 'done' | 'rejected' | 'failed';

/** How a claimed row that got no decision ends: the input was refused, or something failed. */
export interface ClaimClosing {
  readonly status: 'rejected' | 'failed';
  readonly reply: string;
  readonly traceId: string;
  readonly latencyMs: number;
}

/** Inserts the pending row; returns its id, or null when the event was claimed before. */
async function claimInteraction(db: Db, claim: InteractionClaim): Promise<number | null> {
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

/** Fills the claimed row with the decision (the columns `record` writes of a new row). */
async function completeInteraction(db: Db, id: number, decision: Decision, understood?: Understood): Promise<void> {
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
async function closeInteraction(db: Db, id: number, outcome: ClaimClosing): Promise<void> {
  await db
    .update(interactions)
    .set({ status: outcome.status, answer: outcome.reply, traceId: outcome.traceId, latencyMs: outcome.latencyMs })
    .where(eq(interactions.id, id));
}
