/**
 * The database schema (drizzle, PostgreSQL dialect; the same on PGlite), one
 * file per concern: knowledge (KBs, documents, facts, embeddings, gate
 * settings), interactions (the inbox and one row per question), review (samples,
 * labels, judges, agreement reports), gaps (asker feedback, knowledge gaps and
 * the expert requests that close them), console (sign-in sessions and links). Migrations are generated from it.
 */

export * from './schema/console.js';
export * from './schema/gaps.js';
export * from './schema/interactions.js';
export * from './schema/knowledge.js';
export * from './schema/review.js';
export * from './schema/sources.js';
