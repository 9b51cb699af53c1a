import { sql } from 'drizzle-orm';
import { bigserial, doublePrecision, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// JSON columns are typed with what the code writes into them (type-only imports: no runtime dependency).
import type { AnswerabilityView, EvidenceView } from '../../core/answer/decision-views.js';
import type { NearMiss } from '../../core/answer/near-misses.js';
import type { Verdict } from '../../core/gate/types.js';
import { knowledgeBases } from './knowledge.js';

/**
 * The durable inbox: every chat question is written here, keyed by its channel's event id, before the
 * channel is told "received"; workers claim rows (a lease), answer, deliver, and mark them done. A row
 * whose lease ran out (its worker died) is taken again. The payload holds what the channel needs to
 * reply (thread, conversation reference) and the question; never a raw user id.
 */
export const inbox = pgTable(
  'inbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    eventId: text('event_id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** 'pending' | 'claimed' | 'done' | 'failed' */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The posted reply's id (Slack ts, Teams activity id), stored before the row is marked done. */
    postedRef: text('posted_ref'),
    /**
     * Until when a reply a try sent may still land (null: no try sent one): the row is not taken again before
     * then, and the try that takes it looks for the reply before sending it again.
     */
    sendingUntil: timestamp('sending_until', { withTimezone: true }),
    lastError: text('last_error'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('inbox_channel_event').on(t.channel, t.eventId), index('inbox_open').on(t.status, t.id)],
);

/** One row per question asked; idempotent on (channel, event id) so retries never answer twice. */
export const interactions = pgTable(
  'interactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    eventId: text('event_id'),
    conversationRef: text('conversation_ref'),
    userHash: text('user_hash'),
    kbId: integer('kb_id').references(() => knowledgeBases.id),
    kbVersion: integer('kb_version'),
    /** The question the gate judged: for a follow-up in a thread, the standalone question made of it. */
    question: text('question').notNull(),
    /** What the person typed, when it differs from `question` (a follow-up read with its thread); null otherwise. */
    typedQuestion: text('typed_question'),
    /** How `question` was made of what was typed: 'rewritten' (the model) | 'borrowed' (the thread's topic words); null: as typed. */
    understoodBy: text('understood_by'),
    /** The chat thread the question was asked in (follow-ups read its earlier question); null outside chat threads. */
    threadRef: text('thread_ref'),
    status: text('status').notNull().default('done'),
    decision: text('decision'),
    /** The right decision when known ('answer' | 'abstain'): imported benchmark replies carry it; live traffic does not. */
    expectedDecision: text('expected_decision'),
    reason: text('reason'),
    /** How sure the answer is ('high' | 'medium' | 'low'); a medium answer carries a visible caveat. Null on rows before it was kept. */
    confidence: text('confidence'),
    /** The model answer's grounding support in [0, 1] (the weakest claim's, see checkGrounding); null without a model answer. */
    groundingSupport: real('grounding_support'),
    answer: text('answer'),
    verdicts: jsonb('verdicts')
      .$type<readonly Verdict[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    evidence: jsonb('evidence')
      .$type<readonly EvidenceView[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** A refusal's best retrieved facts with their scores and why each did not answer; null for answers and older rows. */
    considered: jsonb('considered').$type<readonly NearMiss[]>(),
    topScore: doublePrecision('top_score'),
    model: text('model'),
    promptVersion: text('prompt_version'),
    /** The answerability score and why: {score, threshold, thresholdSource, model, features, contributions}. */
    answerability: jsonb('answerability').$type<AnswerabilityView>(),
    traceId: text('trace_id'),
    latencyMs: doublePrecision('latency_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('interactions_channel_event').on(t.channel, t.eventId),
    index('interactions_created').on(t.createdAt),
    index('interactions_decision').on(t.decision, t.reason),
    index('interactions_thread').on(t.channel, t.threadRef, t.id),
  ],
);
