import { AMOUNT_WORDS, withoutScaffolding } from '../text/scaffolding.js';
import { tokenize } from '../text/tokenize.js';

/** One distinct refused question (same text, case and spacing aside) and how often it was asked. */
export interface RefusedQuestion {
  readonly question: string;
  readonly times: number;
  /** Deciding reason codes and how often each refused it. */
  readonly reasons: Readonly<Record<string, number>>;
  /** ISO time of the latest ask. */
  readonly lastAsked: string;
  /** The latest interaction that asked it. */
  readonly interactionId: number;
}

/** Refused questions on one topic: what a KB owner could add. */
export interface GapGroup {
  /** The topic's words, most telling first, joined: "parking / visitor". */
  readonly topic: string;
  readonly terms: readonly string[];
  /** Refusals in the group (asks, repeats included). */
  readonly count: number;
  /** Distinct questions in the group. */
  readonly questions: number;
  readonly reasons: Readonly<Record<string, number>>;
  readonly lastAsked: string;
  /** The most asked questions first. */
  readonly examples: readonly { readonly question: string; readonly times: number; readonly interactionId: number }[];
}

export interface GroupOptions {
  /** Average-linkage cosine at which two groups merge. @default 0.3 */
  readonly minSimilarity?: number;
  /** @default 5 */
  readonly maxExamples?: number;
  /**
   * How telling a word is, from outside the refused questions: the KB's own IDF, so that words the KB uses
   * everywhere ("staff", "office") weigh little and words it lacks — the gap — weigh most. @default 1 for every word
   */
  readonly termWeight?: (term: string) => number;
  /**
   * 'topic' (the default): recurring words only, leaning towards words that recur with them — what a KB
   * owner reads as one subject. 'question': every word of each question, no leaning — rewordings of one
   * question, which one answer closes ("Is there a gym?", "Does the office have a gym?"), and not two
   * questions on one subject ("Is the gym open at weekends?").
   */
  readonly by?: 'topic' | 'question';
}

/**
 * Groups refused questions by topic: vectors of the recurring words of the
 * refused questions (a word asked only once cannot make a topic, and would only
 * dilute the similarity of the ones that do), weighted by `termWeight`, then
 * average-linkage agglomerative clustering on their cosine. Largest groups first; a question sharing no
 * recurring word of any weight with any other is a group of its own (a word weighted 0 never joins
 * questions). Deterministic.
 * Cost is cubic in the number of distinct questions: callers cap it (a few hundred).
 */
export function groupRefusals(
  refused: readonly RefusedQuestion[],
  options: GroupOptions = {},
): (GapGroup & { readonly members: readonly number[] })[] {
  const minSimilarity = options.minSimilarity ?? 0.3;
  const termWeight = options.termWeight ?? (() => 1);
  const byQuestion = options.by === 'question';
  const tokens = refused.map((r) => tokenize(withoutScaffolding(r.question)));
  const df = new Map<string, number>();
  for (const list of tokens) for (const term of new Set(list.map((t) => t.term))) df.set(term, (df.get(term) ?? 0) + 1);
  const n = refused.length;
  const vectors = tokens.map((list) => {
    const v = new Map<string, number>();
    for (const { term } of list) if (byQuestion || (df.get(term) ?? 0) > 1) v.set(term, (v.get(term) ?? 0) + 1);
    for (const [term, tf] of v) v.set(term, (1 + Math.log(tf)) * Math.max(termWeight(term), 0));
    return unit(v);
  });

  // Average linkage by the Lance–Williams update over a dense similarity matrix.
  const expanded = byQuestion
    ? vectors
    : expandByCooccurrence(
        vectors,
        tokens.map((list) => new Set(list.map((t) => t.term).filter((t) => (df.get(t) ?? 0) > 1))),
        df,
      );
  const sim = expanded.map((a) => expanded.map((b) => cosine(a, b)));
  const members = refused.map((_, i) => [i]);
  const alive = refused.map(() => true);
  for (;;) {
    let best = minSimilarity;
    let pair: [number, number] | null = null;
    for (let i = 0; i < n; i++) {
      if (!alive[i]) continue;
      const row = sim[i] as number[];
      for (let j = i + 1; j < n; j++)
        if (alive[j] && (row[j] as number) >= best && (pair === null || (row[j] as number) > best))
          [best, pair] = [row[j] as number, [i, j]];
    }
    if (!pair) break;
    const [i, j] = pair;
    const [ni, nj] = [(members[i] as number[]).length, (members[j] as number[]).length];
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === i || k === j) continue;
      const merged = (ni * (sim[i]![k] as number) + nj * (sim[j]![k] as number)) / (ni + nj);
      sim[i]![k] = merged;
      sim[k]![i] = merged;
    }
    members[i] = [...(members[i] as number[]), ...(members[j] as number[])];
    alive[j] = false;
  }

  const groups = members
    .filter((_, i) => alive[i])
    .map((indexes) => ({ ...describe(indexes, refused, tokens, vectors, options.maxExamples ?? 5), members: indexes }));
  return groups.sort(
    (a, b) =>
      b.count - a.count ||
      b.questions - a.questions ||
      (a.lastAsked < b.lastAsked ? 1 : a.lastAsked > b.lastAsked ? -1 : 0) ||
      a.topic.localeCompare(b.topic),
  );
}

function describe(
  indexes: number[],
  refused: readonly RefusedQuestion[],
  tokens: ReturnType<typeof tokenize>[],
  vectors: Map<string, number>[],
  maxExamples: number,
): GapGroup {
  const items = indexes.map((i) => refused[i] as RefusedQuestion);
  // A term's weight in the group: its TF-IDF summed over the group's asks; shown as the word most often written for it.
  const weight = new Map<string, number>();
  const written = new Map<string, Map<string, number>>();
  for (const i of indexes) {
    const times = (refused[i] as RefusedQuestion).times;
    for (const [term, w] of vectors[i] as Map<string, number>) weight.set(term, (weight.get(term) ?? 0) + w * times);
    for (const { term, word } of tokens[i] ?? []) {
      const words = written.get(term) ?? new Map<string, number>();
      words.set(word, (words.get(word) ?? 0) + times);
      written.set(term, words);
    }
  }
  // Named by content words: never an amount word, and only words that tell (weight > 0) when there are any — a
  // word the KB already holds says nothing about what it lacks.
  const naming = [...weight.entries()].filter(([term]) => !AMOUNT_WORDS.has(term));
  const telling = naming.filter(([, w]) => w > 0);
  let ranked = (telling.length > 0 ? telling : naming).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
  // A lone question shares no recurring word: its own words name it.
  if (ranked.length === 0)
    ranked = [...written.keys()]
      .filter((term) => !AMOUNT_WORDS.has(term))
      .slice(0, 3)
      .map((term) => [term, 0]);
  const terms = ranked.map(
    ([term]) => [...(written.get(term) ?? new Map([[term, 1]])).entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
  );
  const reasons: Record<string, number> = {};
  for (const item of items) for (const [code, count] of Object.entries(item.reasons)) reasons[code] = (reasons[code] ?? 0) + count;
  const byAsks = [...items].sort((a, b) => b.times - a.times || (a.lastAsked < b.lastAsked ? 1 : -1));
  return {
    topic: terms.join(' / '),
    terms,
    count: items.reduce((sum, item) => sum + item.times, 0),
    questions: items.length,
    reasons,
    lastAsked: items.reduce((latest, item) => (item.lastAsked > latest ? item.lastAsked : latest), ''),
    examples: byAsks
      .slice(0, maxExamples)
      .map((item) => ({ question: item.question, times: item.times, interactionId: item.interactionId })),
  };
}

/**
 * Second-order similarity: each question also leans towards the words that
 * recur together with its own words among the refused questions ("dog" with
 * "pet" when people ask "dogs and other pets"), half as much as to its own.
 * So two wordings of one topic meet even when they share no word.
 */
function expandByCooccurrence(vectors: Map<string, number>[], termSets: Set<string>[], df: Map<string, number>): Map<string, number>[] {
  const together = new Map<string, Map<string, number>>();
  for (const terms of termSets) {
    for (const a of terms) {
      const row = together.get(a) ?? new Map<string, number>();
      for (const b of terms) if (b !== a) row.set(b, (row.get(b) ?? 0) + 1);
      together.set(a, row);
    }
  }
  return vectors.map((v) => {
    const out = new Map(v);
    for (const [term, w] of v) {
      for (const [other, both] of together.get(term) ?? []) {
        // Cosine of the two words' question sets: 1 when they always come together.
        const affinity = both / Math.sqrt((df.get(term) ?? 1) * (df.get(other) ?? 1));
        out.set(other, (out.get(other) ?? 0) + 0.5 * w * affinity);
      }
    }
    return unit(out);
  });
}

function unit(v: Map<string, number>): Map<string, number> {
  const norm = Math.sqrt([...v.values()].reduce((sum, w) => sum + w * w, 0));
  if (norm > 0) for (const [k, w] of v) v.set(k, w / norm);
  return v;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, w] of small) dot += w * (large.get(term) ?? 0);
  return dot;
}
