import { and, eq, isNull } from 'drizzle-orm';

import type { EvidenceFact, Vocabulary } from '../core/gate/types.js';
import { Bm25Index } from '../core/retrieval/bm25-index.js';
import { reciprocalRankFusion, topByCosine } from '../core/retrieval/fusion.js';
import { identifierTags } from '../core/text/analyse-question.js';
import { CandorError } from '../errors.js';
import type { Db } from '../store/open-store.js';
import { facts, knowledgeBases } from '../store/schema.js';
import { loadEmbeddings } from './embed-facts.js';

export interface StoredFact {
  readonly id: number;
  readonly externalId: string | null;
  readonly text: string;
  readonly heading: string | null;
  readonly source: string;
  readonly confidence: number;
}

/** A knowledge base version, searchable in memory. Rebuilt when the version changes. */
export class KnowledgeIndex {
  private readonly byId = new Map<number, StoredFact>();
  private readonly byExternalId = new Map<string, number>();
  readonly bm25: Bm25Index;

  constructor(
    readonly kbId: number,
    readonly name: string,
    readonly version: number,
    rows: readonly StoredFact[],
    /** Unit-length fact embeddings for vector retrieval (empty: lexical only). */
    readonly vectors: ReadonlyMap<number, Float32Array> = new Map(),
  ) {
    for (const row of rows) {
      this.byId.set(row.id, row);
      if (row.externalId !== null) this.byExternalId.set(row.externalId, row.id);
    }
    this.bm25 = new Bm25Index(rows.map((row) => ({ key: row.id, text: row.text, context: row.heading, tags: identifierTags(row.text) })));
  }

  get size(): number {
    return this.byId.size;
  }

  /** Store ids of the facts with these external ids (unknown ones are returned separately). */
  resolveExternalIds(ids: readonly string[]): { keys: Set<number>; unknown: string[] } {
    const keys = new Set<number>();
    const unknown: string[] = [];
    for (const id of ids) {
      const key = this.byExternalId.get(id);
      if (key === undefined) unknown.push(id);
      else keys.add(key);
    }
    return { keys, unknown };
  }

  /** True when facts have embeddings, so a question vector can be used. */
  get hasVectors(): boolean {
    return this.vectors.size > 0;
  }

  /**
   * Ranked evidence with L2R scores (lexical similarity × confidence), best
   * first. With a question vector, the lexical and the vector rankings are
   * fused by reciprocal rank fusion; each fact keeps its lexical score (what
   * the gate's thresholds mean) and gets its cosine similarity.
   */
  retrieve(question: string, k: number, exclude: ReadonlySet<number> = new Set(), queryVector?: Float32Array): EvidenceFact[] {
    // Over-fetch so that re-ranking by confidence cannot drop a better-scored fact.
    const hits = this.bm25.search(question, k * 2, exclude);
    const lexical = hits.map((hit) => this.evidence(hit.key, hit.normalised)).sort((a, b) => b.score - a.score);
    if (!queryVector || this.vectors.size === 0) return lexical.slice(0, k);
    const near = topByCosine(this.vectors, queryVector, k * 2, exclude);
    const cosineOf = new Map(near.map((n) => [n.key, n.cosine]));
    const lexicalOf = new Map(lexical.map((e) => [e.factId, e]));
    return reciprocalRankFusion([lexical.map((e) => e.factId), near.map((n) => n.key)])
      .slice(0, k)
      .map(({ key }) => ({
        ...(lexicalOf.get(key) ?? this.evidence(key, 0)),
        cosine: cosineOf.get(key) ?? cosine(this.vectors.get(key), queryVector),
      }));
  }

  private evidence(key: number, similarity: number): EvidenceFact {
    const fact = this.byId.get(key) as StoredFact;
    return {
      factId: fact.id,
      externalId: fact.externalId,
      text: fact.text,
      source: fact.source,
      heading: fact.heading,
      confidence: fact.confidence,
      similarity,
      score: similarity * fact.confidence,
      terms: this.bm25.termsOf(fact.id),
    };
  }

  /** The KB's vocabulary as the gate sees it, with excluded facts taken out. */
  vocabulary(exclude: ReadonlySet<number> = new Set()): Vocabulary {
    return {
      has: (term) => this.bm25.df(term, exclude) > 0,
      idf: (term) => this.bm25.idf(term, exclude),
    };
  }
}

/**
 * Keeps one index per KB and rebuilds it when the stored version moves on, so
 * every replica answers from the newest version after an ingest elsewhere.
 */
export class KnowledgeIndexCache {
  private readonly cache = new Map<string, Promise<KnowledgeIndex>>();

  /** `embeddingModel`: load that model's fact embeddings with each version (vector retrieval). */
  constructor(
    private readonly db: Db,
    private readonly embeddingModel?: string,
  ) {}

  async get(name: string): Promise<KnowledgeIndex> {
    const [kb] = await this.db
      .select({ id: knowledgeBases.id, version: knowledgeBases.currentVersion })
      .from(knowledgeBases)
      .where(eq(knowledgeBases.name, name));
    if (!kb)
      throw new CandorError(
        'kb_not_found',
        `There is no knowledge base named "${name}". Ingest documents with: candor ingest PATH --kb ${name}`,
        { status: 404 },
      );
    const cached = this.cache.get(name);
    if (cached) {
      const index = await cached.catch(() => undefined);
      if (index && index.version === kb.version && index.kbId === kb.id) return index;
    }
    const loading = this.load(kb.id, name, kb.version);
    this.cache.set(name, loading);
    loading.catch(() => this.cache.delete(name));
    return loading;
  }

  private async load(kbId: number, name: string, version: number): Promise<KnowledgeIndex> {
    const rows = await this.db
      .select({
        id: facts.id,
        externalId: facts.externalId,
        text: facts.text,
        heading: facts.heading,
        source: facts.source,
        confidence: facts.confidence,
      })
      .from(facts)
      .where(and(eq(facts.kbId, kbId), isNull(facts.retiredInVersion)))
      .orderBy(facts.id);
    const vectors = this.embeddingModel ? await loadEmbeddings(this.db, kbId, this.embeddingModel) : new Map<number, Float32Array>();
    return new KnowledgeIndex(kbId, name, version, rows, vectors);
  }
}

function cosine(v: Float32Array | undefined, q: Float32Array): number {
  if (!v || v.length !== q.length) return 0;
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += (v[i] as number) * (q[i] as number);
  return dot;
}
