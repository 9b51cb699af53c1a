import { sql } from 'drizzle-orm';
import {
  bigserial,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
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
    kbId: integer('kb_id').notNull().references(() => knowledgeBases.id),
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
    kbId: integer('kb_id').notNull().references(() => knowledgeBases.id),
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
    kbId: integer('kb_id').notNull().references(() => knowledgeBases.id),
    documentId: integer('document_id').notNull().references(() => documents.id),
    externalId: text('external_id'),
    text: text('text').notNull(),
    heading: text('heading'),
    position: integer('position').notNull(),
    source: text('source').notNull(),
    confidence: real('confidence').notNull().default(1),
    addedInVersion: integer('added_in_version').notNull(),
    retiredInVersion: integer('retired_in_version'),
    search: tsvector('search').generatedAlwaysAs(
      sql`to_tsvector('english', coalesce(heading, '') || ' ' || text)`,
    ),
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
    verdicts: jsonb('verdicts').notNull().default(sql`'[]'::jsonb`),
    evidence: jsonb('evidence').notNull().default(sql`'[]'::jsonb`),
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
