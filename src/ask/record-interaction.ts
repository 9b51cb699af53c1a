import { createHash } from 'node:crypto';

import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';
import type { AskRequest } from './ask-service.js';
import type { Decided } from './decision.js';

export interface InteractionRecorder {
  record(
    request: AskRequest,
    question: string,
    decision: Decided,
    kbId: number | null,
    traceId: string,
    latencyMs: number,
  ): Promise<number | null>;
}

/** The columns of an interaction row that describe its decision (shared by every writer of the row). */
export function decisionColumns(decision: Decided) {
  const deciding = decision.decision === 'abstain' ? decision.reasons[0] : undefined;
  return {
    kbVersion: decision.kb.version,
    decision: decision.decision,
    reason: deciding?.code ?? null,
    confidence: decision.confidence,
    answer: decision.answer ?? decision.refusal,
    verdicts: decision.reasons,
    evidence: decision.evidence,
    topScore: decision.answerability?.features.relevance ?? null,
    answerability: decision.answerability ?? null,
    model: decision.generation?.model ?? null,
    promptVersion: decision.generation?.prompt ?? null,
  };
}

/** Hashes user ids so that the store and telemetry never hold them in the clear. */
export function hashUserId(userId: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${userId}`).digest('hex').slice(0, 32);
}

/**
 * Writes one row per ask. With an event id the write is idempotent: a retried
 * delivery of the same event finds the row already there and returns null.
 */
export function createInteractionRecorder(db: Db, salt: string): InteractionRecorder {
  return {
    async record(request, question, decision, kbId, traceId, latencyMs) {
      const rows = await db
        .insert(interactions)
        .values({
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
        })
        .onConflictDoNothing()
        .returning({ id: interactions.id });
      return rows[0]?.id ?? null;
    },
  };
}
