import { splitSentences } from '../judge/abstention-detector.js';
import {
  claimGap,
  claimWords,
  coveredShare,
  numbersIn,
  readClaim,
  readSentence,
  splitClaims,
  TermSet,
  type ClaimGap,
  type ClaimReading,
  type EvidenceSentence,
} from './claim-support.js';
import type { Verdict } from './types.js';

/** A model's answer with the facts it says support it (1-based numbers of the evidence it was shown). */
export interface DraftAnswer {
  readonly answer: string;
  readonly citations: readonly number[];
}

/** How well one claim of an answer (a sentence or clause) is backed. */
export interface ClaimSupport {
  /** The claim as the answer wrote it. */
  readonly claim: string;
  /** In [0, 1]: 1 when its best-supporting sentence of the cited facts states everything it says. */
  readonly support: number;
  /** The same against every evidence fact, cited or not (reported, never decides); null unless asked for. */
  readonly supportAnyEvidence: number | null;
  /** What the claim says that its best cited sentence does not, as written in the answer. */
  readonly unsupported: readonly string[];
  /** The best-supporting cited sentence, or null when nothing is cited. */
  readonly bestSentence: string | null;
}

/** The grounding verdict with its graded support: the answer's support is its weakest claim's. */
export interface GroundingVerdict extends Verdict {
  readonly layer: 'grounding';
  /** In [0, 1]; the verdict passes when it reaches `threshold`. 0 when the answer cites nothing usable. */
  readonly support: number;
  /** The weakest claim's support against all evidence (cited or not), with `againstAllEvidence`; for reports. */
  readonly supportAnyEvidence: number | null;
  readonly threshold: number;
  readonly claims: readonly ClaimSupport[];
}

/** Options of the grounding check. */
export interface GroundingOptions {
  /** The question answered: what a claim repeats of it must be in its evidence, and the cited facts must speak of it. */
  readonly question?: string;
  /** The support an answer must reach (default `GROUNDING_THRESHOLD`). */
  readonly threshold?: number;
  /** For tuning only: the production check uses `GROUNDING_WEIGHTS`. */
  readonly weights?: GroundingWeights;
  /** Also score the answer against every evidence fact, cited or not (`supportAnyEvidence`; reports only). @default false */
  readonly againstAllEvidence?: boolean;
}

/**
 * The support an answer must reach, set on the shared PolicyBench answers (`npm run tune:grounding`): the highest
 * threshold at which 85% of the supported answers pass in each domain, CPF and ICA (pooled, 0.56, CPF passed 72%).
 * Set on one domain, no rule tried reaches 85% passed on the other in both directions: see docs/evaluation.md.
 * Below it, the answer falls back to quoting its evidence (src/ask/extractive-answer.ts), not to a refusal.
 */
export const GROUNDING_THRESHOLD = 0.49;

/** How the support score weighs what a claim adds; the defaults are set on the shared data (`npm run tune:grounding`). */
export interface GroundingWeights {
  /** How much more a word the claim repeats from the question, or writes as a name, counts than another word. */
  readonly keyWord: number;
  /** The claims' share of the answer's support (a weighted geometric mean); the rest is the question's coverage. */
  readonly claimShare: number;
  /** The factor for a flipped negation. */
  readonly negation: number;
  /** The factor for "must" against "may". */
  readonly modality: number;
  /** The factor for each comparative or bound the sentence does not state. */
  readonly comparative: number;
}

export const GROUNDING_WEIGHTS: GroundingWeights = { keyWord: 30, claimShare: 0.3, negation: 0.5, modality: 0.7, comparative: 0.8 };

/**
 * The grounding check after generation, as a graded support score. Every citation must name a fact
 * that was retrieved. The answer is split into claims (sentences and clauses); each claim is held to
 * the sentence of the cited facts that supports it best, and scored by the share of its content words
 * that sentence states in any word form (words it repeats from the question, and names, weigh
 * `keyWord` times more), lowered for a flipped negation, "must" against "may", and each comparative
 * or bound the sentence lacks. A number, amount, date or identifier the sentence does not state makes
 * the claim unsupported outright. The answer's support is a weighted geometric mean of its weakest
 * claim's and of the share of the question's words the cited facts hold (facts that never speak of
 * what was asked do not support an answer to it). Below the threshold the answer is withheld
 * (`ungrounded`), naming the weakest claim and what it adds.
 */
export function checkGrounding(
  draft: DraftAnswer,
  evidence: readonly { readonly text: string }[],
  options: GroundingOptions = {},
): GroundingVerdict {
  const threshold = options.threshold ?? GROUNDING_THRESHOLD;
  const w = options.weights ?? GROUNDING_WEIGHTS;
  const base = { layer: 'grounding' as const, threshold };
  const fail = (detail: string): GroundingVerdict => ({
    ...base,
    pass: false,
    code: 'ungrounded',
    detail,
    support: 0,
    score: 0,
    supportAnyEvidence: 0,
    claims: [],
  });
  if (draft.citations.length === 0) return fail('the answer cites no fact');
  const unknown = draft.citations.filter((n) => !Number.isInteger(n) || n < 1 || n > evidence.length);
  if (unknown.length > 0) return fail(`the answer cites ${unknown.map((n) => `[${n}]`).join(', ')}, which were not retrieved`);

  const citedNumbers = new Set(draft.citations);
  const read = evidence.map((e, i) => (options.againstAllEvidence || citedNumbers.has(i + 1) ? sentencesOf(e.text) : []));
  const citedSentences = read.filter((_s, i) => citedNumbers.has(i + 1)).flat();
  const uncitedSentences = options.againstAllEvidence ? read.filter((_s, i) => !citedNumbers.has(i + 1)).flat() : [];
  const question = options.question ? claimWords(options.question) : new Map<string, string>();
  const claims = splitClaims(draft.answer).map((text): ClaimSupport => {
    const claim = readClaim(text);
    const best = bestSupport(claim, citedSentences, question, w);
    return {
      claim: text,
      support: best.support,
      supportAnyEvidence: options.againstAllEvidence
        ? Math.max(best.support, bestSupport(claim, uncitedSentences, question, w).support)
        : null,
      unsupported: best.gap ? gapWords(best.gap) : [],
      bestSentence: best.sentence,
    };
  });
  if (claims.length === 0) return fail('the answer states nothing');
  const weakest = claims.reduce((a, b) => (b.support < a.support ? b : a));
  const weakestAny = Math.min(...claims.map((c) => c.supportAnyEvidence ?? 0));
  const citedTerms = new TermSet(citedSentences.flatMap((s) => [...s.terms.terms]));
  const allTerms = new TermSet([...citedTerms.terms, ...uncitedSentences.flatMap((s) => [...s.terms.terms])]);
  const unasked = [...question].filter(([term]) => !citedTerms.holds(term)).map(([, word]) => word);
  const asked = (terms: TermSet) => coveredShare(weightsOf(question, 1), (t) => terms.holds(t));
  // Without a question there is nothing to hold the facts to but the claims.
  const share = question.size > 0 ? w.claimShare : 1;
  const support = weakest.support ** share * asked(citedTerms) ** (1 - share);
  const supportAnyEvidence = options.againstAllEvidence ? weakestAny ** share * asked(allTerms) ** (1 - share) : null;
  const verdict = { ...base, support, score: support, supportAnyEvidence, claims };
  if (support >= threshold)
    return { ...verdict, pass: true, code: null, detail: `the cited facts state what the answer says (support ${support.toFixed(2)})` };
  const adds = weakest.unsupported.length > 0 ? ` (not stated: ${weakest.unsupported.slice(0, 5).join(', ')})` : '';
  const offTopic =
    unasked.length > 0
      ? `; the cited facts never mention ${unasked
          .slice(0, 3)
          .map((w) => `"${w}"`)
          .join(', ')}`
      : '';
  return {
    ...verdict,
    pass: false,
    code: 'ungrounded',
    // The claim is named by its place and what it adds, never quoted: withheld text stays out of replies and APIs.
    detail: `the cited facts do not back ${claims.length === 1 ? 'the answer' : `claim ${claims.indexOf(weakest) + 1} of ${claims.length}`}${adds}${offTopic} (support ${support.toFixed(2)} < ${threshold})`,
  };
}

/** Facts' sentences as read, by text: a KB's facts are shown again and again, so each is read once (bounded). */
const readFacts = new Map<string, readonly EvidenceSentence[]>();
const READ_FACTS_MAX = 20_000;

/**
 * A fact's sentences, read once per text (and so once per KB version: a changed fact is another text). A reading
 * only ever fills its own lazy fields, so sharing it between answers changes no score.
 */
function sentencesOf(text: string): readonly EvidenceSentence[] {
  const known = readFacts.get(text);
  if (known) return known;
  const read = splitSentences(unglue(text)).map(readSentence);
  if (readFacts.size >= READ_FACTS_MAX) readFacts.delete(readFacts.keys().next().value as string);
  readFacts.set(text, read);
  return read;
}

/** Scraped text glues sentences ("account.If you"): a lower-case letter, "." and a capital is a boundary. */
function unglue(text: string): string {
  return text.replace(/([a-z]{2})\.([A-Z])/g, '$1. $2');
}

function weightsOf(words: ReadonlyMap<string, string>, weight: number): Map<string, number> {
  return new Map([...words.keys()].map((t) => [t, weight]));
}

function bestSupport(
  claim: ClaimReading,
  sentences: readonly EvidenceSentence[],
  question: ReadonlyMap<string, string>,
  w: GroundingWeights,
): { support: number; gap: ClaimGap | null; sentence: string | null } {
  let best: { support: number; gap: ClaimGap | null; sentence: string | null } = { support: 0, gap: null, sentence: null };
  const weights = new Map([...claim.words.keys()].map((t) => [t, question.has(t) || claim.names.has(t) ? w.keyWord : 1]));
  for (const sentence of sentences) {
    const gap = claimGap(claim, sentence);
    const missing = new Set(gap.missingTerms);
    const support =
      (gap.specifics.length > 0 ? 0 : coveredShare(weights, (t) => !missing.has(t))) *
      (gap.negation ? w.negation : 1) *
      (gap.modality ? w.modality : 1) *
      w.comparative ** gap.comparatives.length;
    if (support > best.support || best.sentence === null) best = { support, gap, sentence: sentence.text };
  }
  return best;
}

/** What a claim adds, in the answer's words, for people. */
function gapWords(gap: ClaimGap): string[] {
  return [
    ...gap.specifics.map((s) => `"${s}"`),
    ...(gap.negation ? ['a negation'] : []),
    ...(gap.modality ? ['an obligation or permission'] : []),
    ...gap.comparatives.map((c) => `"${c}"`),
    ...gap.words.map((w) => `"${w}"`),
  ];
}

export { numbersIn };
