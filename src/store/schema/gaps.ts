import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { interactions } from './interactions.js';
import { facts, knowledgeBases } from './knowledge.js';

/**
 * What askers said of a reply, append-only: an asker's current feedback on an
 * interaction is their latest event. A redelivered press (same event id) is
 * recorded once.
 */
export const askerFeedback = pgTable(
  'asker_feedback',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    interactionId: bigint('interaction_id', { mode: 'number' })
      .notNull()
      .references(() => interactions.id),
    /** "<platform>:<hashed user id>": the same hash as interactions.user_hash, never a raw id. */
    asker: text('asker').notNull(),
    /** 'helpful' | 'not_helpful' */
    kind: text('kind').notNull(),
    /** For not_helpful: 'wrong' | 'outdated' | 'incomplete' | 'did_not_answer' | 'other'; null when none was given. */
    reason: text('reason'),
    comment: text('comment'),
    /** The channel's id for the press (Slack trigger id, Teams activity id). */
    eventId: text('event_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('asker_feedback_current').on(t.interactionId, t.asker, t.id), uniqueIndex('asker_feedback_event').on(t.eventId)],
);

/**
 * A knowledge gap: refused questions on one topic of one KB, and what became
 * of them: 'open' (nobody asked yet), 'asked' (posted to the KB's experts),
 * 'answered' (an expert's answer is fact `fact_id`), 'out_of_scope'.
 */
export const gaps = pgTable(
  'gaps',
  {
    id: serial('id').primaryKey(),
    kbId: integer('kb_id')
      .notNull()
      .references(() => knowledgeBases.id),
    /** The wording experts see: the first question of the gap that was asked of them (or its first refusal). */
    question: text('question').notNull(),
    state: text('state').notNull().default('open'),
    factId: integer('fact_id').references(() => facts.id),
    askedAt: timestamp('asked_at', { withTimezone: true }),
    /** Who closed it ("slack:U…", "cli:NAME") and when: an answer or "not for the KB". */
    closedBy: text('closed_by'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /**
     * Why an answered gap is open again: 'reconfirmation_due' (its fact, kept in `fact_id`, is due for
     * re-confirmation and no longer used) | 'fact_retired'; null when it never was, or once it is closed again.
     */
    reopenedBecause: text('reopened_because'),
    reopenedAt: timestamp('reopened_at', { withTimezone: true }),
    /** Where the question was posted to experts: ["slack:C1|ts", "teams:conversation|activity"]. */
    posts: jsonb('posts')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** A replica posting it to experts right now (so two replicas never both post). */
    postClaimedAt: timestamp('post_claimed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gaps_kb_state').on(t.kbId, t.state)],
);

/** Which gap a refused interaction belongs to: assigned once, kept. */
export const gapMembers = pgTable(
  'gap_members',
  {
    interactionId: bigint('interaction_id', { mode: 'number' })
      .primaryKey()
      .references(() => interactions.id),
    gapId: integer('gap_id')
      .notNull()
      .references(() => gaps.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gap_members_gap').on(t.gapId)],
);

/** "Ask an expert" on a reply (a press, or the KB's automatic routing): at most one per interaction. */
export const gapRequests = pgTable(
  'gap_requests',
  {
    id: serial('id').primaryKey(),
    gapId: integer('gap_id')
      .notNull()
      .references(() => gaps.id),
    interactionId: bigint('interaction_id', { mode: 'number' })
      .notNull()
      .references(() => interactions.id),
    /** "<platform>:<hashed user id>", or "auto" for automatic routing. */
    asker: text('asker').notNull(),
    /** Where the asker is told of the outcome (a Slack thread, a Teams conversation reference); null: nowhere. */
    target: jsonb('target').$type<Record<string, unknown>>(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('gap_requests_interaction').on(t.interactionId), index('gap_requests_gap').on(t.gapId)],
);
