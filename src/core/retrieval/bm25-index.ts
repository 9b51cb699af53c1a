import { contentTerms } from '../text/tokenize.js';
import type { Bm25Params, IndexableFact } from './bm25-builder.js';
import { Bm25Segment } from './bm25-segment.js';
import { topByMaxScore, type PostingList, type ScoredFact } from './max-score.js';

export type { Bm25Params, IndexableFact } from './bm25-builder.js';

export interface Bm25Hit {
  readonly key: number;
  /** Raw BM25 score. */
  readonly raw: number;
  /**
   * BM25 divided by the score of an ideal fact holding every query term once at
   * average length: about the IDF-weighted share of the question the fact
   * matches, in [0, 1], comparable across knowledge bases of any size.
   */
  readonly normalised: number;
}

/** Where a fact sits: its segment (by place in the index's list) and its position there. */
export interface FactPlace {
  readonly segment: number;
  readonly doc: number;
}

export const DEFAULT_BM25_PARAMS: Bm25Params = { k1: 1.2, b: 0.75 };

/**
 * An in-memory BM25 index: a list of immutable segments (see Bm25Segment) plus the facts deleted from them,
 * as search engines keep theirs. A new KB version adds a small segment for what it added and deletes what it
 * retired (`withChanges`), sharing every other segment with the version before; the statistics BM25 reads
 * (how many facts hold a term, the average length) are summed across segments less the deleted facts, so
 * scores and order are exactly those of one index built from the live facts in insertion order (segment by
 * segment). Top-k search walks postings a fact at a time and skips the facts that cannot reach the top k
 * (MaxScore). Exclusion sets let leave-one-out evaluation ask as if facts were absent, with document
 * frequencies adjusted to match.
 */
export class Bm25Index {
  private segmentList: readonly Bm25Segment[] = [];
  /** Per segment: the positions of its deleted facts. */
  private deletedDocs: readonly ReadonlySet<number>[] = [];
  /** Per term: how many deleted facts hold it. */
  private deletedDf: ReadonlyMap<string, number> = new Map();
  private liveSize = 0;
  private liveLength = 0;

  constructor(
    facts: Iterable<IndexableFact>,
    private readonly params: Bm25Params = DEFAULT_BM25_PARAMS,
  ) {
    const segment = Bm25Segment.of(facts, params);
    if (segment.size > 0) this.adopt([segment], [new Set()], new Map());
  }

  /**
   * Builds the index a slice of facts at a time, awaiting `pause` between slices (see Bm25Segment.build). Same
   * index as the constructor's.
   */
  static async build(
    facts: Iterable<IndexableFact> | AsyncIterable<IndexableFact>,
    options: { readonly pause: () => Promise<void>; readonly sliceSize?: number; readonly sliceMs?: number; readonly params?: Bm25Params },
  ): Promise<Bm25Index> {
    const params = options.params ?? DEFAULT_BM25_PARAMS;
    const segment = await Bm25Segment.build(facts, { ...options, params });
    return Bm25Index.of([segment], params);
  }

  /**
   * An index of these segments (empty ones are dropped), with the positions deleted from each (`deleted[s]`
   * for segments[s]; none when not given), as a snapshot restores one.
   */
  static of(
    segments: readonly Bm25Segment[],
    params: Bm25Params = DEFAULT_BM25_PARAMS,
    deleted: readonly (readonly number[])[] = [],
  ): Bm25Index {
    const index = new Bm25Index([], params);
    const kept: Bm25Segment[] = [];
    const deletedDocs: Set<number>[] = [];
    const deletedDf = new Map<string, number>();
    segments.forEach((segment, s) => {
      if (segment.size === 0) return;
      const docs = new Set((deleted[s] ?? []).filter((doc) => doc >= 0 && doc < segment.size));
      for (const doc of docs) for (const term of segment.termsAt(doc)) deletedDf.set(term, (deletedDf.get(term) ?? 0) + 1);
      kept.push(segment);
      deletedDocs.push(docs);
    });
    index.adopt(kept, deletedDocs, deletedDf);
    return index;
  }

  /**
   * This index with a segment added (after the others) and facts deleted, as a new index: this one is not
   * changed, and both share their segments. Keys not live here are ignored in `remove`.
   */
  withChanges(change: { readonly add?: Bm25Segment | null; readonly remove?: Iterable<number> }): Bm25Index {
    // Copied on write: a version that deletes nothing, or only from a small segment, does not copy the large
    // segments' deletions.
    const deletedDocs = [...this.deletedDocs];
    const copied = new Set<number>();
    let deletedDf: Map<string, number> | null = null;
    for (const key of change.remove ?? []) {
      const place = this.locate(key);
      if (!place) continue;
      if (!copied.has(place.segment)) {
        deletedDocs[place.segment] = new Set(deletedDocs[place.segment]);
        copied.add(place.segment);
      }
      (deletedDocs[place.segment] as Set<number>).add(place.doc);
      deletedDf ??= new Map(this.deletedDf);
      for (const term of (this.segmentList[place.segment] as Bm25Segment).termsAt(place.doc))
        deletedDf.set(term, (deletedDf.get(term) ?? 0) + 1);
    }
    const segments = [...this.segmentList];
    if (change.add && change.add.size > 0) {
      segments.push(change.add);
      deletedDocs.push(new Set());
    }
    const next = new Bm25Index([], this.params);
    next.adopt(segments, deletedDocs, deletedDf ?? this.deletedDf);
    return next;
  }

  /**
   * This index with segments `from`..`to` (inclusive) replaced by `merged`, a segment of their live facts in
   * order (deleted ones gone): the same live facts, in the same order, as a new index.
   */
  withMerged(range: { readonly from: number; readonly to: number }, merged: Bm25Segment): Bm25Index {
    const { from, to } = range;
    const deletedDf = new Map(this.deletedDf);
    for (let s = from; s <= to; s++) {
      const segment = this.segmentList[s] as Bm25Segment;
      for (const doc of this.deletedDocs[s] as ReadonlySet<number>) {
        for (const term of segment.termsAt(doc)) {
          const left = (deletedDf.get(term) ?? 0) - 1;
          if (left > 0) deletedDf.set(term, left);
          else deletedDf.delete(term);
        }
      }
    }
    const keep = merged.size > 0 ? [merged] : [];
    const segments = [...this.segmentList.slice(0, from), ...keep, ...this.segmentList.slice(to + 1)];
    const deletedDocs = [...this.deletedDocs.slice(0, from), ...keep.map(() => new Set<number>()), ...this.deletedDocs.slice(to + 1)];
    const next = new Bm25Index([], this.params);
    next.adopt(segments, deletedDocs, deletedDf);
    return next;
  }

  private adopt(
    segments: readonly Bm25Segment[],
    deletedDocs: readonly ReadonlySet<number>[],
    deletedDf: ReadonlyMap<string, number>,
  ): void {
    this.segmentList = segments;
    this.deletedDocs = deletedDocs;
    this.deletedDf = deletedDf;
    let size = 0;
    let length = 0;
    segments.forEach((segment, s) => {
      const deleted = deletedDocs[s] as ReadonlySet<number>;
      size += segment.size - deleted.size;
      length += segment.totalLength;
      for (const doc of deleted) length -= segment.lengths[doc] as number;
    });
    this.liveSize = size;
    this.liveLength = length;
  }

  /** Live facts. */
  get size(): number {
    return this.liveSize;
  }

  get segments(): readonly Bm25Segment[] {
    return this.segmentList;
  }

  /** Deleted facts, all segments together. */
  get deletedCount(): number {
    return this.deletedDocs.reduce((sum, docs) => sum + docs.size, 0);
  }

  /** The positions of the facts deleted from segment `s`. */
  deletedIn(s: number): ReadonlySet<number> {
    return this.deletedDocs[s] ?? EMPTY;
  }

  /** Whether the fact at this place was deleted. */
  isDeleted(place: FactPlace): boolean {
    return (this.deletedDocs[place.segment] as ReadonlySet<number>).has(place.doc);
  }

  /** Where the live fact stored under `key` is, or null (newest segment first: a key re-added after deletion). */
  locate(key: number): FactPlace | null {
    for (let s = this.segmentList.length - 1; s >= 0; s--) {
      const doc = (this.segmentList[s] as Bm25Segment).positionOf(key);
      if (doc >= 0 && !(this.deletedDocs[s] as ReadonlySet<number>).has(doc)) return { segment: s, doc };
    }
    return null;
  }

  /** Terms of the fact stored under `key` (empty when unknown). */
  termsOf(key: number): ReadonlySet<string> {
    const place = this.locate(key);
    if (!place) return new Set();
    return new Set((this.segmentList[place.segment] as Bm25Segment).termsAt(place.doc));
  }

  /** Number of facts holding `term`, not counting deleted or excluded ones. */
  df(term: string, exclude: ReadonlySet<number> = EMPTY): number {
    let df = -(this.deletedDf.get(term) ?? 0);
    const ids: (number | undefined)[] = [];
    this.segmentList.forEach((segment, s) => {
      const id = segment.termId(term);
      ids[s] = id;
      if (id !== undefined) df += segment.docFrequency(id);
    });
    if (df === 0) return 0;
    for (const key of exclude) {
      const place = this.locate(key);
      if (!place) continue;
      const id = ids[place.segment];
      if (id !== undefined && (this.segmentList[place.segment] as Bm25Segment).termIdsAt(place.doc).includes(id)) df -= 1;
    }
    return df;
  }

  /** BM25 inverse document frequency, always positive. */
  idf(term: string, exclude: ReadonlySet<number> = EMPTY): number {
    const n = this.size - this.excludedLive(exclude);
    const df = this.df(term, exclude);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private excludedLive(exclude: ReadonlySet<number>): number {
    let present = 0;
    for (const key of exclude) if (this.locate(key)) present += 1;
    return present;
  }

  /**
   * Top-k facts for a question, best first; equal scores in the order a term-at-a-time scorer first reaches
   * them (by the first question term they hold, then insertion order).
   */
  search(question: string, k: number, exclude: ReadonlySet<number> = EMPTY): Bm25Hit[] {
    const terms = contentTerms(question);
    if (terms.length === 0 || this.size === 0 || k <= 0) return [];
    const { k1, b } = this.params;
    const idfs = terms.map((term) => this.idf(term, exclude));
    const ideal = idfs.reduce((sum, idf) => sum + idf, 0);
    // Lengths are normalised by the live facts' average, excluded ones included (as a full index does).
    const avgdl = this.liveLength / this.size || 1;
    const excluded = this.excludedDocs(exclude);
    const found: { hit: ScoredFact; segment: number }[] = [];
    this.segmentList.forEach((segment, s) => {
      const lists: PostingList[] = [];
      terms.forEach((term, order) => {
        const id = segment.termId(term);
        if (id === undefined) return;
        const idf = idfs[order] as number;
        lists.push({ order, idf, ...segment.postings(id), bound: idf * segment.bound(id, avgdl) });
      });
      if (lists.length === 0) return;
      const skip = excluded[s] ?? (this.deletedDocs[s] as ReadonlySet<number>);
      for (const hit of topByMaxScore(lists, k, { k1, b, avgdl, lengths: segment.lengths, skip })) found.push({ hit, segment: s });
    });
    if (this.segmentList.length > 1) found.sort(ranking);
    return found.slice(0, k).map(({ hit, segment }) => ({
      key: (this.segmentList[segment] as Bm25Segment).keyAt(hit.doc),
      raw: hit.score,
      normalised: ideal > 0 ? Math.min(1, hit.score / ideal) : 0,
    }));
  }

  /** Per segment holding an excluded fact: its deleted positions and excluded ones (others: undefined). */
  private excludedDocs(exclude: ReadonlySet<number>): (Set<number> | undefined)[] {
    const skip: (Set<number> | undefined)[] = [];
    for (const key of exclude) {
      const place = this.locate(key);
      if (!place) continue;
      const docs = (skip[place.segment] ??= new Set(this.deletedDocs[place.segment]));
      docs.add(place.doc);
    }
    return skip;
  }
}

/** Best first: score, then the first question term held, then insertion order (segment, then position). */
function ranking(a: { hit: ScoredFact; segment: number }, b: { hit: ScoredFact; segment: number }): number {
  return b.hit.score - a.hit.score || a.hit.first - b.hit.first || a.segment - b.segment || a.hit.doc - b.hit.doc;
}

const EMPTY: ReadonlySet<number> = new Set();
