import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const knowledgeBases = pgTable('knowledge_bases', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  currentVersion: integer('current_version').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per change to a KB's content; facts point at the version that added or retired them. */
export const kbVersions = pgTable(
  'kb_versions',
  {
    id: serial('id').primaryKey(),
    kbId: integer('kb_id')
      .notNull()
      .references(() => knowledgeBases.id),
    version: integer('version').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('kb_versions_kb_version').on(t.kbId, t.version)],
);

export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    kbId: integer('kb_id')
      .notNull()
      .references(() => knowledgeBases.id),
    path: text('path').notNull(),
    title: text('title'),
    contentHash: text('content_hash').notNull(),
    addedInVersion: integer('added_in_version').notNull(),
    retiredInVersion: integer('retired_in_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('documents_kb_path').on(t.kbId, t.path)],
);

export const facts = pgTable(
  'facts',
  {
    id: serial('id').primaryKey(),
    kbId: integer('kb_id')
      .notNull()
      .references(() => knowledgeBases.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id),
    externalId: text('external_id'),
    text: text('text').notNull(),
    heading: text('heading'),
    position: integer('position').notNull(),
    source: text('source').notNull(),
    confidence: real('confidence').notNull().default(1),
    addedInVersion: integer('added_in_version').notNull(),
    retiredInVersion: integer('retired_in_version'),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('english', coalesce(heading, '') || ' ' || text)`),
  },
  (t) => [
    index('facts_kb_active').on(t.kbId, t.retiredInVersion),
    index('facts_external_id').on(t.kbId, t.externalId),
    index('facts_search').using('gin', t.search),
  ],
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
    question: text('question').notNull(),
    status: text('status').notNull().default('done'),
    decision: text('decision'),
    reason: text('reason'),
    answer: text('answer'),
    verdicts: jsonb('verdicts')
      .notNull()
      .default(sql`'[]'::jsonb`),
    evidence: jsonb('evidence')
      .notNull()
      .default(sql`'[]'::jsonb`),
    topScore: doublePrecision('top_score'),
    model: text('model'),
    promptVersion: text('prompt_version'),
    traceId: text('trace_id'),
    latencyMs: doublePrecision('latency_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('interactions_channel_event').on(t.channel, t.eventId),
    index('interactions_created').on(t.createdAt),
    index('interactions_decision').on(t.decision, t.reason),
  ],
);

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
    /** 'reaction' | 'button' | 'terminal' | 'judge' */
    via: text('via').notNull(),
    /** The channel's event id, so a redelivered reaction is recorded once. */
    eventId: text('event_id'),
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
    outcomes: jsonb('outcomes').notNull(),
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
    report: jsonb('report').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agreement_reports_run_key').on(t.runKey)],
);

/** Embeddings of facts, per model: written after ingestion in batches, so a failed run resumes where it stopped. */
export const factEmbeddings = pgTable(
  'fact_embeddings',
  {
    factId: integer('fact_id')
      .notNull()
      .references(() => facts.id),
    model: text('model').notNull(),
    vector: real('vector').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.factId, t.model] })],
);
