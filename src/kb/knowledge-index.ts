import type { EvidenceFact, Vocabulary } from '../core/gate/types.js';
import { Bm25Index, type IndexableFact } from '../core/retrieval/bm25-index.js';
import { reciprocalRankFusion, topByCosine } from '../core/retrieval/fusion.js';
import { GrowableArray } from '../core/retrieval/growable-array.js';
import { rerankByPhrase } from '../core/retrieval/phrase-rerank.js';
import { promoteRangeRows } from '../core/retrieval/range-rows.js';
import { identifierTags } from '../core/text/analyse-question.js';
import { figuresIn } from '../core/text/number-ranges.js';
import { FactTable, type StoredFact } from './fact-table.js';

export type { StoredFact } from './fact-table.js';

/** A KB's own calibrated gate setting (the newest version), from `candor eval calibrate --apply`. */
export interface KbGateSetting {
  readonly version: number;
  readonly minAnswerability: number;
  /** Answers scoring below this carry a caveat; null for settings stored before bands were calibrated. */
  readonly confidentAbove: number | null;
  readonly method: string;
  readonly model: string;
}

/** A knowledge base version, searchable in memory. Rebuilt when the version changes. */
export class KnowledgeIndex {
  /** This KB's calibrated gate setting in force, if any (kept current by KnowledgeIndexCache). */
  gateSetting: KbGateSetting | null = null;
  /** When the first expert answer in this index is due for re-confirmation (ms since epoch); the cache reloads then. */
  expiresAt = Number.POSITIVE_INFINITY;
  private readonly table: FactTable;
  /** Facts that open their passage (the first of their section), by position: a section's topic sentence. */
  private readonly openers: Uint8Array;
  /** Experts' answers (source `expert:…`), as opposed to facts of the KB's documents. */
  readonly expertFactIds: ReadonlySet<number>;
  readonly bm25: Bm25Index;

  constructor(
    readonly kbId: number,
    readonly name: string,
    readonly version: number,
    rows: readonly StoredFact[] | CollectedFacts,
    /** Unit-length fact embeddings for vector retrieval (empty: lexical only). */
    readonly vectors: ReadonlyMap<number, Float32Array> = new Map(),
    /** The lexical index, when built already (KnowledgeIndex.build builds it a slice at a time). */
    bm25?: Bm25Index,
  ) {
    const collected = rows instanceof CollectedFacts ? rows : CollectedFacts.of(rows);
    collected.seal();
    this.table = collected.table;
    this.openers = collected.openers.trimmed();
    this.expertFactIds = collected.expertFactIds;
    this.bm25 = bm25 ?? new Bm25Index(rows instanceof CollectedFacts ? collected.indexable() : rows.map(indexable));
  }

  /**
   * The index of a KB version, built a slice at a time with `pause` between slices (see Bm25Index.build).
   * Rows may come in pages (an async iterable): they are indexed as they come and not kept as objects.
   */
  static async build(
    kb: { readonly kbId: number; readonly name: string; readonly version: number },
    rows: Iterable<StoredFact> | AsyncIterable<StoredFact>,
    vectors: ReadonlyMap<number, Float32Array>,
    slicing: { readonly pause: () => Promise<void>; readonly sliceSize?: number | undefined },
  ): Promise<KnowledgeIndex> {
    const collected = new CollectedFacts();
    const bm25 = await Bm25Index.build(
      (async function* () {
        for await (const row of rows) {
          collected.add(row);
          yield indexable(row);
        }
      })(),
      { pause: slicing.pause, ...(slicing.sliceSize ? { sliceSize: slicing.sliceSize } : {}) },
    );
    return new KnowledgeIndex(kb.kbId, kb.name, kb.version, collected, vectors, bm25);
  }

  get size(): number {
    return this.table.size;
  }

  /** Every fact of this version, in store order. */
  allFacts(): StoredFact[] {
    return Array.from({ length: this.table.size }, (_, position) => this.table.at(position));
  }

  /**
   * Store ids of the facts with these external ids (unknown ones are returned
   * separately). A fact without an external id is named by its store id, as
   * decisions and generated questions name it.
   */
  resolveExternalIds(ids: readonly string[]): { keys: Set<number>; unknown: string[] } {
    const keys = new Set<number>();
    const unknown: string[] = [];
    for (const id of ids) {
      const key = this.table.idOfExternal(id) ?? (/^\d+$/.test(id) && this.isUnnamed(Number(id)) ? Number(id) : undefined);
      if (key === undefined) unknown.push(id);
      else keys.add(key);
    }
    return { keys, unknown };
  }

  /** Whether a fact with this store id is here and has no external id (decisions then name it by its store id). */
  private isUnnamed(id: number): boolean {
    const position = this.table.positionOf(id);
    return position >= 0 && this.table.externalIdAt(position) === null;
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
    // Over-fetch so that re-ranking by phrase and confidence cannot drop a better-scored fact.
    const pool = this.bm25.search(question, Math.max(k * 4, RERANK_POOL), exclude);
    const hits = rerankByPhrase(
      question,
      pool,
      k * 2,
      (key) => {
        const position = this.table.positionOf(key);
        return position < 0 ? '' : this.table.textAt(position);
      },
      (key) => this.openers[this.table.positionOf(key)] === 1,
    );
    const lexical = hits.map((hit) => this.evidence(hit.key, hit.normalised)).sort((a, b) => b.score - a.score);
    const figures = figuresIn(question);
    if (!queryVector || this.vectors.size === 0) {
      if (figures.length === 0) return lexical.slice(0, k);
      const kept = new Set(hits.map((hit) => hit.key));
      const rest = pool.filter((hit) => !kept.has(hit.key)).map((hit) => this.evidence(hit.key, hit.normalised));
      return promoteRangeRows(lexical, [...lexical.slice(k), ...rest], figures, k);
    }
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
    const fact = this.table.at(this.table.positionOf(key));
    return {
      factId: fact.id,
      externalId: fact.externalId,
      text: fact.text,
      source: fact.source,
      passage: fact.passage ?? `fact#${fact.id}`,
      heading: fact.heading,
      title: fact.title ?? null,
      url: fact.url ?? null,
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
      unseenIdf: () => this.bm25.idf(UNSEEN_TERM, exclude),
    };
  }
}

/**
 * A KB version's facts as they are read (row by row, or page by page): the fact table, which facts open
 * their passage, and which are experts' answers.
 */
export class CollectedFacts {
  readonly table = new FactTable();
  readonly openers = new GrowableArray((n) => new Uint8Array(n));
  readonly expertFactIds = new Set<number>();
  private seenPassages: Set<string> | null = new Set();

  static of(rows: readonly StoredFact[]): CollectedFacts {
    const collected = new CollectedFacts();
    for (const row of rows) collected.add(row);
    return collected;
  }

  add(row: StoredFact): void {
    if (!this.seenPassages) throw new Error('CollectedFacts: facts cannot be added once indexed');
    this.table.append(row);
    if (isExpertSource(row.source)) this.expertFactIds.add(row.id);
    const passage = row.passage ?? `fact#${row.id}`;
    this.openers.push(this.seenPassages.has(passage) ? 0 : 1);
    this.seenPassages.add(passage);
  }

  /** Seals the table (no more facts) and gives its facts as the lexical index reads them. */
  *indexable(): Generator<IndexableFact> {
    this.seal();
    for (let position = 0; position < this.table.size; position++) yield indexable(this.table.at(position));
  }

  seal(): void {
    if (!this.seenPassages) return;
    this.seenPassages = null;
    this.table.seal();
  }
}

/** A stored fact as the lexical index reads it: its text, its search context and its identifier tags. */
export function indexable(row: StoredFact): IndexableFact {
  return { key: row.id, text: row.text, context: searchContext(row), tags: identifierTags(row.text) };
}

/** An expert fact's source starts with this: "expert:slack:U123". */
export const EXPERT_SOURCE_PREFIX = 'expert:';

export function isExpertSource(source: string): boolean {
  return source.startsWith(EXPERT_SOURCE_PREFIX);
}

/** How a citation names an expert answer: "Answered by an expert on 2026-11-25". */
export function expertTitle(confirmed: Date): string {
  return `Answered by an expert on ${confirmed.toISOString().slice(0, 10)}`;
}

/**
 * What a fact is searched with besides its text: its document's folder and file
 * names (an organisation's "hr/leave-policy.md" names its subject, as a URL does
 * for a web page; numbers and extensions dropped) and its heading path.
 * Ready-made (.jsonl) facts have no document path: their heading alone.
 */
export function searchContext(fact: Pick<StoredFact, 'heading' | 'documentPath' | 'alias'>): string | null {
  const pathWords = (fact.documentPath ?? '')
    .replace(/\.[A-Za-z0-9]+$/, '')
    .split(/[\/_\-.\s]+/)
    .filter((word) => word !== '' && !/^\d+$/.test(word))
    .join(' ');
  const parts = [pathWords, fact.heading ?? '', fact.alias ?? ''].filter((part) => part !== '');
  return parts.length === 0 ? null : parts.join(' › ');
}

/** BM25 hits re-ranked by phrase: enough that a long fact stating the question outright is among them. */
const RERANK_POOL = 20;

/** No token can produce this term, so its IDF is that of a term no fact holds. */
const UNSEEN_TERM = '\u0000';

function cosine(v: Float32Array | undefined, q: Float32Array): number {
  if (!v || v.length !== q.length) return 0;
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += (v[i] as number) * (q[i] as number);
  return dot;
}
