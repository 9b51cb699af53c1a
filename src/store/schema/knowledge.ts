import { doublePrecision, index, integer, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    /** Where people can open the document (canonical URL, PDF URI, the config's folder base URL); null when unknown. */
    url: text('url'),
    /** The version that last gave the document (and its active facts) a new link; null: none since it was added. */
    linkedInVersion: integer('linked_in_version'),
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
    /** The link a citation of this fact opens: its own (a .jsonl `url`) or its document's; null when unknown. */
    url: text('url'),
    /** The passage the fact belongs to (document + section, or a .jsonl fact's own or named passage); never the source label. */
    passage: text('passage'),
    confidence: real('confidence').notNull().default(1),
    /** Other wording that finds this fact, searched like a heading (below the text): an expert fact's question. */
    alias: text('alias'),
    /** An expert fact's expert, as people read it ("Dana Lee"); null for document facts. */
    author: text('author'),
    /** When an expert answered (or last re-confirmed) this fact; null for document facts. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    addedInVersion: integer('added_in_version').notNull(),
    retiredInVersion: integer('retired_in_version'),
  },
  (t) => [
    index('facts_kb_active').on(t.kbId, t.retiredInVersion),
    index('facts_external_id').on(t.kbId, t.externalId),
    // An index build reads a KB's facts page by page in id order (migration 0010).
    index('facts_kb_id_id').on(t.kbId, t.id),
    // A KB's index reads what a version added (a segment of it) rather than every fact.
    index('facts_kb_added').on(t.kbId, t.addedInVersion),
  ],
);

/**
 * A KB's own gate settings, versioned: `candor eval calibrate --apply` adds a row; the newest row is
 * in force for that KB only. Old rows stay as history.
 */
export const kbGateSettings = pgTable(
  'kb_gate_settings',
  {
    id: serial('id').primaryKey(),
    kbId: integer('kb_id')
      .notNull()
      .references(() => knowledgeBases.id),
    version: integer('version').notNull(),
    minAnswerability: doublePrecision('min_answerability').notNull(),
    /** This KB's confident band: answers scoring below it carry a caveat (null: the model's band). */
    confidentAbove: doublePrecision('confident_above'),
    /** How it was chosen: 'calibrate:questions', 'calibrate:probes', 'calibrate:labels'. */
    method: text('method').notNull(),
    /** The model the threshold was calibrated for (id@version). */
    model: text('model').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('kb_gate_settings_kb_version').on(t.kbId, t.version)],
);

/**
 * A KB's own grounding-check threshold, versioned: `candor eval calibrate --grounding --apply` adds a row; the
 * newest row is in force for that KB's model answers only (else GROUNDING_THRESHOLD). Old rows stay as history.
 * Announced to replicas like a gate setting (trigger `kb_grounding_settings_notify`, migration 0018).
 */
export const kbGroundingSettings = pgTable(
  'kb_grounding_settings',
  {
    id: serial('id').primaryKey(),
    kbId: integer('kb_id')
      .notNull()
      .references(() => knowledgeBases.id),
    version: integer('version').notNull(),
    /** The support a model's draft must reach (checkGrounding's threshold). */
    threshold: doublePrecision('threshold').notNull(),
    /** How it was chosen: 'calibrate-grounding:model' (the model's answers) or 'calibrate-grounding:labels'. */
    method: text('method').notNull(),
    /** The grounding check it was calibrated for (its weights, see groundingCheckRef). */
    checker: text('checker').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('kb_grounding_settings_kb_version').on(t.kbId, t.version)],
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
