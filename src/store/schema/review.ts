import {
  bigint,
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

import type { StoredAgreementReport } from '../../core/review/agreement-report.js';
import { interactions } from './interactions.js';

/** An interaction chosen for review; an interaction is sampled at most once. */
export const reviewSamples = pgTable(
  'review_samples',
  {
    id: serial('id').primaryKey(),
    interactionId: bigint('interaction_id', { mode: 'number' })
      .notNull()
      .references(() => interactions.id),
    stratum: text('stratum').notNull(),
    /** How close the deciding score was to its threshold (relative); null when the layer has no score. */
    nearness: doublePrecision('nearness'),
    /** Where the review card went: 'slack', 'teams', or null while unposted (terminal reviewers still label). */
    postedTo: text('posted_to'),
    /** The card's address: Slack "channel|ts", Teams "conversationId|activityId". */
    postRef: text('post_ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('review_samples_interaction').on(t.interactionId), uniqueIndex('review_samples_post').on(t.postRef)],
);

/**
 * Every label event, append-only: a reviewer's current label for a task is
 * their latest event, unless that event is a removal. History is never lost.
 */
export const labelEvents = pgTable(
  'label_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => reviewSamples.id),
    task: text('task').notNull(),
    /** Human: "slack:U123" / "teams:<aad id>" / "cli:<name>"; judge: "llm:<spec>@<version>". */
    annotator: text('annotator').notNull(),
    action: text('action').notNull(), // 'set' | 'remove'
    value: text('value').notNull(),
    /** 'reaction' | 'button' | 'terminal' | 'console' | 'judge' | 'import' */
    via: text('via').notNull(),
    /** The channel's event id, so a redelivered reaction is recorded once. */
    eventId: text('event_id'),
    /** Why a judge gave the label (an LLM judge's reasoning); null for people's labels and older rows. */
    explanation: text('explanation'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('label_events_current').on(t.sampleId, t.task, t.annotator, t.id), uniqueIndex('label_events_event').on(t.eventId)],
);

/** Versioned judge prompts: a new version is a new row; old ones stay for history. */
export const judgeSpecs = pgTable(
  'judge_specs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    task: text('task').notNull(),
    criteria: text('criteria').notNull(),
    outcomes: jsonb('outcomes').$type<readonly string[]>().notNull(),
    promptId: text('prompt_id').notNull(),
    promptVersion: text('prompt_version').notNull(),
    model: text('model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('judge_specs_name_version').on(t.name, t.version)],
);

/** One stored agreement report per run key (a schedule slot or a manual run); written whole or not at all. */
export const agreementReports = pgTable(
  'agreement_reports',
  {
    id: serial('id').primaryKey(),
    runKey: text('run_key').notNull(),
    report: jsonb('report').$type<StoredAgreementReport>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agreement_reports_run_key').on(t.runKey)],
);
