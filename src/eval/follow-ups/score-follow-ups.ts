import { contentTerms } from '../../core/text/tokenize.js';
import { FOLLOW_UP_KINDS, type FollowUpPair } from './follow-up-pairs.js';

/** What the gate made of a question: its decision and the fact its answer leads with. */
export interface GateOutcome {
  readonly decision: 'answer' | 'abstain' | 'error';
  /** The first cited fact of an answer; null for refusals. */
  readonly topFact: string | null;
}

/** A produced question held to the hand-written standalone one. */
export interface Judged {
  readonly question: string;
  readonly gate: GateOutcome;
  /** Same decision, and for an answer the same leading fact, as the hand-written question. */
  readonly gateRight: boolean;
  /** Share of the hand-written question's content terms the produced one holds. */
  readonly recall: number;
  /** Share of the produced question's content terms that are the hand-written one's. */
  readonly precision: number;
  /** recall ≥ WORDS_RECALL and precision ≥ WORDS_PRECISION. */
  readonly wordsRight: boolean;
}

export const WORDS_RECALL = 0.75;
export const WORDS_PRECISION = 0.5;

/** The gate's outcome on the produced question against its outcome on the hand-written one, and their words. */
export function judgeQuestion(question: string, gate: GateOutcome, standalone: string, reference: GateOutcome): Judged {
  const produced = new Set(contentTerms(question));
  const wanted = new Set(contentTerms(standalone));
  const shared = [...wanted].filter((t) => produced.has(t)).length;
  const recall = wanted.size === 0 ? 1 : shared / wanted.size;
  const precision = produced.size === 0 ? 0 : shared / produced.size;
  const gateRight =
    gate.decision !== 'error' &&
    gate.decision === reference.decision &&
    (gate.decision === 'abstain' || gate.topFact === reference.topFact);
  return {
    question,
    gate,
    gateRight,
    recall: round(recall),
    precision: round(precision),
    wordsRight: recall >= WORDS_RECALL && precision >= WORDS_PRECISION,
  };
}

export interface Tally {
  readonly n: number;
  readonly gateRight: number;
  readonly wordsRight: number;
  /** Both right. */
  readonly right: number;
  readonly gateShare: number;
  readonly wordsShare: number;
  readonly share: number;
}

export interface MethodSummary extends Tally {
  readonly byKind: Record<string, Tally>;
}

/** Per method: right counts and shares overall and per kind of follow-up. */
export function summariseMethod(items: readonly { readonly pair: FollowUpPair; readonly judged: Judged }[]): MethodSummary {
  const byKind: Record<string, Tally> = {};
  for (const kind of FOLLOW_UP_KINDS) {
    const own = items.filter((i) => i.pair.kind === kind);
    if (own.length > 0) byKind[kind] = tally(own.map((i) => i.judged));
  }
  return { ...tally(items.map((i) => i.judged)), byKind };
}

function tally(judged: readonly Judged[]): Tally {
  const n = judged.length;
  const gateRight = judged.filter((j) => j.gateRight).length;
  const wordsRight = judged.filter((j) => j.wordsRight).length;
  const right = judged.filter((j) => j.gateRight && j.wordsRight).length;
  const share = (k: number) => (n === 0 ? 0 : round(k / n));
  return { n, gateRight, wordsRight, right, gateShare: share(gateRight), wordsShare: share(wordsRight), share: share(right) };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
