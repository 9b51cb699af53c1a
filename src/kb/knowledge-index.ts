import type { EvidenceFact, Vocabulary } from '../core/gate/types.js';
import { Bm25Index } from '../core/retrieval/bm25-index.js';
import { Bm25Segment } from '../core/retrieval/bm25-segment.js';
import { reciprocalRankFusion, topByCosine } from '../core/retrieval/fusion.js';
import { rerankByPhrase } from '../core/retrieval/phrase-rerank.js';
import { promoteRangeRows } from '../core/retrieval/range-rows.js';
import { figuresIn } from '../core/text/number-ranges.js';
import { CollectedFacts, FactSegment } from './fact-segment.js';
import type { StoredFact } from './fact-table.js';
import { buildSegment, indexable, type Slicing } from './segment-build.js';

export type { StoredFact } from './fact-table.js';
export { EXPERT_SOURCE_PREFIX, isExpertSource } from './fact-segment.js';
export { buildSegment, indexable, searchContext, type Slicing } from './segment-build.js';

/** A KB's own calibrated gate setting (the newest version), from `candor eval calibrate --apply`. */
export interface KbGateSetting {
  readonly version: number;
  readonly minAnswerability: number;
  /** Answers scoring below this carry a caveat; null for settings stored before bands were calibrated. */
  readonly confidentAbove: number | null;
  readonly method: string;
  readonly model: string;
}

/** A KB's own grounding-check threshold (the newest version), from `candor eval calibrate --grounding --apply`. */
export interface KbGroundingSetting {
  readonly version: number;
  readonly threshold: number;
  readonly method: string;
  /** The grounding check it was calibrated for (groundingCheckRef). */
  readonly checker: string;
}

/** A knowledge base version, searchable in memory: segments of facts (see Bm25Index) and what was deleted from them. */
export class KnowledgeIndex {
  /** This KB's calibrated gate setting in force, if any (kept current by KnowledgeIndexCache). */
  gateSetting: KbGateSetting | null = null;
  /** This KB's calibrated grounding threshold in force, if any (kept current by KnowledgeIndexCache). */
  groundingSetting: KbGroundingSetting | null = null;
  /** When the first expert answer in this index is due for re-confirmation (ms since epoch); the cache reloads then. */
  expiresAt = Number.POSITIVE_INFINITY;
  /** The facts of each segment, in the order of `bm25.segments`. */
  readonly segments: readonly FactSegment[];
  /** Experts' answers (source `expert:…`), as opposed to facts of the KB's documents. */
  readonly expertFactIds: ReadonlySet<number>;
  readonly bm25: Bm25Index;

  constructor(
    readonly kbId: number,
    readonly name: string,
    readonly version: number,
    /** Facts (indexed at once, one segment), or segments already built with their BM25 index. */
    rows: readonly StoredFact[] | { readonly segments: readonly FactSegment[]; readonly bm25: Bm25Index },
    /** Unit-length fact embeddings for vector retrieval (empty: lexical only). */
    readonly vectors: ReadonlyMap<number, Float32Array> = new Map(),
  ) {
    if ('segments' in rows) {
      this.segments = rows.segments;
      this.bm25 = rows.bm25;
    } else {
      const segment = CollectedFacts.of(rows).seal();
      this.segments = segment.size > 0 ? [segment] : [];
      this.bm25 = new Bm25Index(rows.map(indexable));
    }
    const experts = new Set<number>();
    this.segments.forEach((segment, s) => {
      for (const key of segment.expertKeys) if (this.bm25.locate(key)?.segment === s) experts.add(key);
    });
    this.expertFactIds = experts;
  }

  /**
   * The index of a KB version, one segment built as `slicing` says (in a worker thread, or a slice at a time
   * here; see buildSegment). Rows may come in pages (an async iterable): they are indexed as they come.
   */
  static async build(
    kb: { readonly kbId: number; readonly name: string; readonly version: number },
    rows: Iterable<StoredFact> | AsyncIterable<StoredFact>,
    vectors: ReadonlyMap<number, Float32Array>,
    slicing: Slicing,
  ): Promise<KnowledgeIndex> {
    const { facts, bm25 } = await buildSegment(rows, slicing, kb.kbId);
    const segments = facts.size > 0 ? [facts] : [];
    return new KnowledgeIndex(kb.kbId, kb.name, kb.version, { segments, bm25: Bm25Index.of([bm25]) }, vectors);
  }

  /**
   * The index of a later version of the same KB: this one with a segment of the facts it added and without
   * those it retired, sharing every other segment (this index is not changed).
   */
  withChanges(
    version: number,
    change: {
      readonly add: { readonly facts: FactSegment; readonly bm25: Bm25Segment } | null;
      readonly remove: readonly number[];
      readonly vectors: ReadonlyMap<number, Float32Array>;
    },
  ): KnowledgeIndex {
    const bm25 = this.bm25.withChanges({ add: change.add?.bm25 ?? null, remove: change.remove });
    const segments = change.add && change.add.facts.size > 0 ? [...this.segments, change.add.facts] : this.segments;
    return new KnowledgeIndex(this.kbId, this.name, version, { segments, bm25 }, change.vectors);
  }

  /**
   * This version with segments `from`..`to` merged into one of their live facts (built a slice at a time), as
   * a new index answering exactly as this one does.
   */
  async merged(range: { readonly from: number; readonly to: number }, slicing: Slicing): Promise<KnowledgeIndex> {
    const live = function* (this: KnowledgeIndex): Generator<StoredFact> {
      for (let s = range.from; s <= range.to; s++) {
        const segment = this.segments[s] as FactSegment;
        const gone = this.bm25.deletedIn(s);
        for (let doc = 0; doc < segment.size; doc++) if (!gone.has(doc)) yield segment.table.at(doc);
      }
    }.call(this);
    const add = await buildSegment(live, slicing, this.kbId);
    const keep = add.facts.size > 0 ? [add.facts] : [];
    const segments = [...this.segments.slice(0, range.from), ...keep, ...this.segments.slice(range.to + 1)];
    const index = new KnowledgeIndex(
      this.kbId,
      this.name,
      this.version,
      { segments, bm25: this.bm25.withMerged(range, add.bm25) },
      this.vectors,
    );
    index.expiresAt = this.expiresAt;
    index.gateSetting = this.gateSetting;
    return index;
  }

  get size(): number {
    return this.bm25.size;
  }

  /** Every live fact of this version, in store order (segment by segment). */
  allFacts(): StoredFact[] {
    const all: StoredFact[] = [];
    this.segments.forEach((segment, s) => {
      for (let doc = 0; doc < segment.size; doc++) if (!this.bm25.isDeleted({ segment: s, doc })) all.push(segment.table.at(doc));
    });
    return all;
  }

  /** The live fact with this store id, or null. */
  private fact(key: number): StoredFact | null {
    const place = this.bm25.locate(key);
    return place ? (this.segments[place.segment] as FactSegment).table.at(place.doc) : null;
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
      const key = this.liveExternal(id) ?? (/^\d+$/.test(id) && this.fact(Number(id))?.externalId === null ? Number(id) : undefined);
      if (key === undefined) unknown.push(id);
      else keys.add(key);
    }
    return { keys, unknown };
  }

  /** The store id of the live fact with this external id, if any (newest segment first). */
  private liveExternal(externalId: string): number | undefined {
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const key = (this.segments[s] as FactSegment).table.idOfExternal(externalId);
      if (key !== undefined && this.bm25.locate(key)?.segment === s) return key;
    }
    return undefined;
  }

  /** Whether the live fact is the first of its passage (a section's topic sentence), as in one index of the live facts. */
  private opens(key: number): boolean {
    const place = this.bm25.locate(key);
    if (!place) return false;
    const gone = (s: number) => this.bm25.deletedIn(s);
    const segment = this.segments[place.segment] as FactSegment;
    if (segment.hasEarlierOfPassage(place.doc, gone(place.segment))) return false;
    const passage = segment.passageAt(place.doc);
    if (passage === null) return true; // its own passage
    for (let s = 0; s < place.segment; s++) if ((this.segments[s] as FactSegment).holdsPassage(passage, gone(s))) return false;
    return true;
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
      (key) => this.fact(key)?.text ?? '',
      (key) => this.opens(key),
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
    const fact = this.fact(key) as StoredFact;
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

/** How a citation names an expert answer: "Answered by an expert on 2026-11-25". */
export function expertTitle(confirmed: Date): string {
  return `Answered by an expert on ${confirmed.toISOString().slice(0, 10)}`;
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
