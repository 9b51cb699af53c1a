import { and, eq, isNull, sql } from 'drizzle-orm';

import { embedTexts } from '../llm/embed.js';
import type { Llm } from '../llm/llm-client.js';
import type { Db } from '../store/open-store.js';
import { factEmbeddings, facts, knowledgeBases } from '../store/schema.js';

export interface EmbedSummary {
  readonly model: string;
  readonly embedded: number;
  /** Active facts of the KB that still have no embedding for the model (0 when complete). */
  readonly missing: number;
}

/**
 * Embeds the KB's active facts that have no embedding for the configured
 * model yet, in batches, each stored as it arrives: an interrupted run loses
 * at most one batch and the next run carries on from there.
 */
export async function embedMissingFacts(
  db: Db,
  llm: Llm,
  kb: string,
  options: { batchSize?: number; onProgress?: (message: string) => void } = {},
): Promise<EmbedSummary> {
  const model = llm.embeddingModel;
  if (!model) throw new Error('no embedding model is configured (CANDOR_EMBEDDING_MODEL)');
  const batchSize = options.batchSize ?? 64;
  const todo = await db
    .select({ id: facts.id, text: facts.text, heading: facts.heading })
    .from(facts)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
    .leftJoin(factEmbeddings, and(eq(factEmbeddings.factId, facts.id), eq(factEmbeddings.model, model)))
    .where(and(eq(knowledgeBases.name, kb), isNull(facts.retiredInVersion), isNull(factEmbeddings.factId)))
    .orderBy(facts.id);
  let embedded = 0;
  for (let i = 0; i < todo.length; i += batchSize) {
    const batch = todo.slice(i, i + batchSize);
    const vectors = await embedTexts(
      llm,
      batch.map((f) => (f.heading ? `${f.heading}: ${f.text}` : f.text)),
    );
    await db
      .insert(factEmbeddings)
      .values(batch.map((f, j) => ({ factId: f.id, model, vector: Array.from(vectors[j] as Float32Array) })))
      .onConflictDoNothing();
    embedded += batch.length;
    if (todo.length > batchSize) options.onProgress?.(`embedded ${embedded}/${todo.length} facts`);
  }
  return { model, embedded, missing: todo.length - embedded };
}

/** Stored embeddings of the given facts for a model, as unit vectors. */
export async function loadEmbeddings(db: Db, kbId: number, model: string): Promise<Map<number, Float32Array>> {
  const rows = await db
    .select({ factId: factEmbeddings.factId, vector: factEmbeddings.vector })
    .from(factEmbeddings)
    .innerJoin(facts, eq(facts.id, factEmbeddings.factId))
    .where(and(eq(facts.kbId, kbId), isNull(facts.retiredInVersion), eq(factEmbeddings.model, model), sql`true`));
  return new Map(rows.map((r) => [r.factId, Float32Array.from(r.vector)]));
}
