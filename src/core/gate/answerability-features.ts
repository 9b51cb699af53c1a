import { tokenize } from '../text/tokenize.js';
import { coverage, termWeights } from './coverage.js';
import { expectedValueIn } from './expected-value.js';
import { passageMargin } from './passage-margin.js';
import type { EvidenceFact, GateInput } from './types.js';

/**
 * The graded signals the answerability model weighs, in its input order. Each is
 * computed on the best-ranked fact unless its name says otherwise; all lie in
 * [0, 1] and mean the same on a KB of 100 facts or 100,000.
 */
export const FEATURE_NAMES = [
  /** L2R relevance of the best fact: normalised BM25 × confidence. */
  'relevance',
  /** Second-best score over the best one: near 1 when nothing stands out. */
  'runnerUpRatio',
  /** IDF-weighted share of the question's terms the best fact holds. */
  'coverage',
  /** The best such share among the top three facts. */
  'coverageTop3',
  /** How much more of the question the best fact covers than any other retrieved fact. */
  'coverageLead',
  /** 1 when the best fact holds the question's rarest term that the KB knows. */
  'rarestTermHeld',
  /** Share of the question's two rarest known terms that the best fact holds. */
  'rareTermsHeld',
  /** IDF-weighted share of the question's terms that the whole KB never mentions. */
  'unknownTerms',
  /** 1 when any question term is unknown to the whole KB. */
  'anyUnknownTerm',
  /**
   * How specific the question's known part is: the IDF of its rarest known term over the IDF of a
   * term the KB never mentions. Low when all the KB recognises is generic ("claim limit") and the
   * specific thing asked ("acupuncture") is unknown.
   */
  'knownSpecificity',
  /** (s1 − mean of the next four passages' best scores) / s1: passages, not facts, compete. */
  'passageMargin',
  /** 1 when the question asks for an amount, number, duration, date or party that none of the top three facts holds. */
  'answerTypeMissing',
  /** 1 when every number the question names is in the best fact. */
  'numbersAgree',
  /** 1 when the question names a number the best fact lacks while the fact states others. */
  'numbersConflict',
  /** Share of the question's adjacent term pairs that are adjacent in the best fact too. */
  'adjacentPairs',
  /** IDF-weighted share of question terms found in the best fact beside a neighbour they have in the question. */
  'phraseCoverage',
  /** Share of the best fact's words that are question terms: a short fact saying just this. */
  'precision',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Readonly<Record<FeatureName, number>>;

/** Features plus what a refusal may name: question words the best fact or the KB lacks, as typed. */
export interface FeatureReport {
  readonly values: Features;
  /** Question words absent from the best fact, rarest first. */
  readonly missingFromBest: readonly string[];
  /** Question words the whole KB never mentions, rarest first. */
  readonly unknownToKb: readonly string[];
  /** Numbers the question names that the best fact lacks. */
  readonly missingNumbers: readonly string[];
}

/** Computes every feature for one question and its retrieved evidence. Pure and cheap: one tokenisation of the best fact. */
export function answerabilityFeatures(input: GateInput): FeatureReport {
  const { question, ranked, vocabulary, settings } = input;
  const weights = termWeights(question.terms, vocabulary);
  const top: EvidenceFact | undefined = ranked[0];
  const wordOf = (term: string) => question.wordOf?.[term] ?? term;
  const byRarity = [...question.terms].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  const known = byRarity.filter((t) => vocabulary.has(t));
  // A figure the KB never states ("85") is not an unknown word: a range may hold it ("71 and above"); the
  // number features judge figures.
  const unknown = byRarity.filter((t) => !vocabulary.has(t) && !/^\d/.test(t));
  const totalWeight = sum(question.terms.map((t) => weights.get(t) ?? 0));

  const coverages = ranked.map((fact) => coverage(question.terms, weights, fact.terms));
  const best = coverages[0] ?? 0;
  const s1 = top?.score ?? 0;
  const rare2 = known.slice(0, 2);
  const questionNumbers = numbersIn(question.text);
  const factNumbers = top ? numbersIn(top.text) : new Set<string>();
  const missingNumbers = [...questionNumbers].filter((n) => !factNumbers.has(n));
  const sequence = top ? factSequence(top) : null;

  const values: Features = {
    relevance: s1,
    runnerUpRatio: s1 > 0 ? (ranked[1]?.score ?? 0) / s1 : 0,
    coverage: best,
    coverageTop3: Math.max(0, ...coverages.slice(0, 3)),
    coverageLead: best - Math.max(0, ...coverages.slice(1)),
    rarestTermHeld: top && known[0] !== undefined && top.terms.has(known[0]) ? 1 : 0,
    rareTermsHeld: top && rare2.length > 0 ? rare2.filter((t) => top.terms.has(t)).length / rare2.length : 0,
    unknownTerms: totalWeight > 0 ? sum(unknown.map((t) => weights.get(t) ?? 0)) / totalWeight : 0,
    anyUnknownTerm: unknown.length > 0 ? 1 : 0,
    knownSpecificity: known[0] !== undefined ? Math.min(1, (weights.get(known[0]) ?? 0) / vocabulary.unseenIdf()) : 0,
    passageMargin: passageMargin(ranked),
    answerTypeMissing:
      settings.checkAnswerType && question.expects && top && !ranked.slice(0, 3).some((f) => expectedValueIn(question.expects!, f.text))
        ? 1
        : 0,
    numbersAgree: questionNumbers.size > 0 && missingNumbers.length === 0 ? 1 : 0,
    numbersConflict: missingNumbers.length > 0 && factNumbers.size > 0 ? 1 : 0,
    adjacentPairs: sequence ? adjacentPairShare(question.text, sequence.pairs) : 0,
    phraseCoverage: sequence && totalWeight > 0 ? phraseWeight(question.text, sequence.pairs, weights) / totalWeight : 0,
    precision: sequence && sequence.terms.length > 0 ? sequence.terms.filter((t) => weights.has(t)).length / sequence.terms.length : 0,
  };
  return {
    values,
    missingFromBest: known.filter((t) => !top?.terms.has(t)).map(wordOf),
    unknownToKb: unknown.map(wordOf),
    missingNumbers,
  };
}

/** A feature vector in FEATURE_NAMES order, for the model. */
export function featureVector(values: Features): number[] {
  return FEATURE_NAMES.map((name) => values[name]);
}

interface FactSequence {
  readonly terms: readonly string[];
  /** Adjacent term pairs, both orders ("visit pass" and "pass visit"). */
  readonly pairs: ReadonlySet<string>;
}

function factSequence(fact: EvidenceFact): FactSequence {
  const terms = tokenize(fact.text).map((t) => t.term);
  const pairs = new Set<string>();
  for (const seq of [terms, fact.heading ? tokenize(fact.heading).map((t) => t.term) : []]) {
    for (let i = 0; i + 1 < seq.length; i++) {
      pairs.add(`${seq[i]} ${seq[i + 1]}`);
      pairs.add(`${seq[i + 1]} ${seq[i]}`);
    }
  }
  return { terms, pairs };
}

function questionSequence(text: string): string[] {
  return tokenize(text).map((t) => t.term);
}

function adjacentPairShare(question: string, pairs: ReadonlySet<string>): number {
  const seq = questionSequence(question);
  const own = new Set<string>();
  for (let i = 0; i + 1 < seq.length; i++) own.add(`${seq[i]} ${seq[i + 1]}`);
  if (own.size === 0) return 0;
  let held = 0;
  for (const pair of own) if (pairs.has(pair)) held += 1;
  return held / own.size;
}

/** Weight of the question terms that sit beside one of their question neighbours in the fact too. */
function phraseWeight(question: string, pairs: ReadonlySet<string>, weights: ReadonlyMap<string, number>): number {
  const seq = questionSequence(question);
  const counted = new Set<string>();
  let total = 0;
  seq.forEach((term, i) => {
    if (counted.has(term)) return;
    const before = i > 0 && pairs.has(`${seq[i - 1]} ${term}`);
    const after = i + 1 < seq.length && pairs.has(`${term} ${seq[i + 1]}`);
    if (!before && !after) return;
    counted.add(term);
    total += weights.get(term) ?? 0;
  });
  return total;
}

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  seventy: '70',
  eighty: '80',
  ninety: '90',
  hundred: '100',
};

/** Numbers a text states, as digits ("2,500" → "2500", "five" → "5"); whole tokens only, so "15" is not found in "2015". */
export function numbersIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const [token] of text.toLowerCase().matchAll(/\d[\d,]*(?:\.\d+)?|\p{L}+/gu)) {
    if (/^\d/.test(token))
      out.add(
        token
          .replace(/,(?=\d{3}\b)/g, '')
          .replace(/,$/, '')
          .replace(/\.0+$/, ''),
      );
    else if (NUMBER_WORDS[token] !== undefined) out.add(NUMBER_WORDS[token]);
  }
  return out;
}

function sum(xs: readonly number[]): number {
  let total = 0;
  for (const x of xs) total += x;
  return total;
}
