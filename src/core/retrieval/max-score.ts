/** One question term's postings, as BM25 top-k search walks them. */
export interface PostingList {
  /** The term's place in the question: scores add up in this order, and equal scores rank by the first term a fact holds. */
  readonly order: number;
  readonly idf: number;
  /** Fact positions, ascending. */
  readonly facts: Uint32Array;
  readonly tfs: Uint16Array | Uint32Array;
  /** No fact gets more than this from the term: idf × the term's highest tf-part. */
  readonly bound: number;
}

export interface ScoredFact {
  readonly doc: number;
  readonly score: number;
  /** The first question term (by order) the fact holds: equal scores rank by it. */
  readonly first: number;
}

/** How a fact's term weights are computed: BM25's k1 and b, the index's average length, the facts' lengths. */
export interface Bm25Scoring {
  readonly k1: number;
  readonly b: number;
  readonly avgdl: number;
  readonly lengths: Uint32Array;
  /** Fact positions left out (deleted or excluded). */
  readonly skip: ReadonlySet<number>;
}

/**
 * Upper bounds are compared with this margin: a sum of bounds rounded differently from a fact's own score must
 * never prune a fact that belongs in the top k.
 */
const BOUND_MARGIN = 1 + 1e-9;

/**
 * The k best facts by BM25 (Turtle & Flood's MaxScore, document at a time). Lists are ordered by their bound;
 * the lowest ones, whose bounds together cannot lift a fact into the current top k, are "non-essential": a
 * fact is a candidate only if an essential list holds it, and the non-essential lists are only probed for
 * candidates (a gallop forward), so the long postings of common words are mostly skipped, not walked.
 *
 * Exact: every fact's score is the sum of its terms' parts in question order (the same arithmetic as scoring
 * every posting), and the order is score descending, then the first question term the fact holds, then
 * insertion order — the order in which a term-at-a-time scorer first reaches facts. Facts in `skip` are left out.
 * A fact's length norm is k1 · (1 − b + b · length / avgdl), computed as a whole index computes it.
 */
export function topByMaxScore(given: readonly PostingList[], k: number, scoring: Bm25Scoring): ScoredFact[] {
  const { k1, b, avgdl, lengths, skip } = scoring;
  const norm = (doc: number) => k1 * (1 - b + (b * (lengths[doc] as number)) / avgdl);
  const lists = [...given].sort((a, b) => a.bound - b.bound);
  const byOrder = [...given].sort((a, b) => a.order - b.order);
  const n = lists.length;
  const cursor = new Uint32Array(n);
  /** Each list's part of the fact being scored (NaN: the list does not hold it), by question order. */
  const part = new Float64Array(n).fill(Number.NaN);
  const slotOf = new Map(byOrder.map((list, slot) => [list, slot]));
  const slot = lists.map((list) => slotOf.get(list) as number);
  const below = new Float64Array(n + 1); // below[i]: the bounds of lists[0..i) together
  for (let i = 0; i < n; i++) below[i + 1] = (below[i] as number) + (lists[i] as PostingList).bound * BOUND_MARGIN;

  const top: { doc: number; score: number; first: number }[] = [];
  let threshold = 0; // a fact must beat the k-th best to enter; 0 while fewer than k are held
  let essential = 0; // lists[essential..] are essential
  for (;;) {
    let doc = -1;
    for (let i = essential; i < n; i++) {
      const list = lists[i] as PostingList;
      const at = cursor[i] as number;
      if (at < list.facts.length) {
        const fact = list.facts[at] as number;
        if (doc < 0 || fact < doc) doc = fact;
      }
    }
    if (doc < 0) break;
    const docNorm = norm(doc);
    let partial = 0;
    for (let i = essential; i < n; i++) {
      const list = lists[i] as PostingList;
      const at = cursor[i] as number;
      if (list.facts[at] === doc) {
        const tf = list.tfs[at] as number;
        const value = (list.idf * tf * (k1 + 1)) / (tf + docNorm);
        part[slot[i] as number] = value;
        partial += value;
        cursor[i] = at + 1;
      }
    }
    let candidate = !skip.has(doc);
    for (let i = essential - 1; i >= 0 && candidate; i--) {
      if (top.length === k && partial + (below[i + 1] as number) < threshold) {
        candidate = false;
        break;
      }
      const list = lists[i] as PostingList;
      const at = gallop(list.facts, cursor[i] as number, doc);
      cursor[i] = at;
      if (list.facts[at] === doc) {
        const tf = list.tfs[at] as number;
        const value = (list.idf * tf * (k1 + 1)) / (tf + docNorm);
        part[slot[i] as number] = value;
        partial += value;
      }
    }
    if (candidate) {
      let score = 0;
      let first = -1;
      for (let s = 0; s < n; s++) {
        const value = part[s] as number;
        if (Number.isNaN(value)) continue;
        score += value;
        if (first < 0) first = (byOrder[s] as PostingList).order;
      }
      if (offer(top, k, { doc, score, first })) {
        if (top.length === k) {
          threshold = (top[k - 1] as { score: number }).score;
          while (essential < n && (below[essential + 1] as number) < threshold) essential += 1;
        }
      }
    }
    part.fill(Number.NaN);
  }
  return top;
}

/** Inserts a fact into the best-first top list if it ranks there; true when it did. */
function offer(
  top: { doc: number; score: number; first: number }[],
  k: number,
  fact: { doc: number; score: number; first: number },
): boolean {
  if (top.length === k && !ranksBefore(fact, top[k - 1] as typeof fact)) return false;
  let i = top.length === k ? k - 1 : top.length;
  while (i > 0 && ranksBefore(fact, top[i - 1] as typeof fact)) {
    top[i] = top[i - 1] as typeof fact;
    i -= 1;
  }
  top[i] = fact;
  return true;
}

/**
 * Best first: the higher score, then the first question term held, then insertion order. A module function, not
 * a closure made per offer(): offer() runs once per candidate fact, and under tsx (esbuild's keepNames) every
 * such closure was also renamed with Object.defineProperty, which doubled the median search at 100k facts.
 */
function ranksBefore(a: { doc: number; score: number; first: number }, b: { doc: number; score: number; first: number }): boolean {
  return a.score > b.score || (a.score === b.score && (a.first < b.first || (a.first === b.first && a.doc < b.doc)));
}

/** The first position at or after `from` whose fact is ≥ `doc` (exponential then binary search). */
function gallop(facts: Uint32Array, from: number, doc: number): number {
  if (from >= facts.length || (facts[from] as number) >= doc) return from;
  let step = 1;
  let lo = from;
  let hi = from + step;
  while (hi < facts.length && (facts[hi] as number) < doc) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > facts.length) hi = facts.length;
  // facts[lo] < doc; facts[hi] >= doc or hi = length
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if ((facts[mid] as number) < doc) lo = mid;
    else hi = mid;
  }
  return hi;
}
