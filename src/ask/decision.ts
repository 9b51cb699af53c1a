import type { AnswerabilityView, EvidenceView } from '../core/answer/decision-views.js';
import type { NearMiss } from '../core/answer/near-misses.js';
import type { Confidence } from '../core/gate/gate.js';
import type { Verdict } from '../core/gate/types.js';

export type { Confidence } from '../core/gate/gate.js';
export type { AnswerabilityView, EvidenceView, ThresholdSource } from '../core/answer/decision-views.js';

/** What every decision carries, answered or not. */
interface DecisionCommon {
  /** For an abstention, every layer's verdict with the deciding one first; for an answer, every (passing) verdict. */
  readonly reasons: readonly Verdict[];
  readonly kb: { readonly name: string; readonly version: number };
  /**
   * The learned answerability score: P(answerable), the threshold it was held to and where that
   * threshold came from (a KB's calibrated setting, CANDOR_MIN_ANSWERABILITY, or the model's default),
   * and every feature with its pull. Absent only when the gate could not run (store unavailable).
   */
  readonly answerability?: AnswerabilityView;
  /** With a model configured: which model and prompt (id@version) decided. Absent in extractive mode. */
  readonly generation?: { readonly model: string; readonly prompt: string };
  /** `high` | `medium` (answered with a caveat) | `low` (refused). */
  readonly confidence: Confidence;
  /** A follow-up read with its thread: the standalone question judged, shown as "Understood as: …". */
  readonly understoodAs?: string | undefined;
}

/** An answer: the text and exactly the facts it cites. */
export interface Answered extends DecisionCommon {
  readonly decision: 'answer';
  readonly answer: string;
  /** Exactly the facts the answer cites. */
  readonly evidence: readonly EvidenceView[];
  /**
   * Extractive answers: facts retrieval ranked beside the sources that the answer does not state. They are
   * related reading, never sources; absent when there are none (and for a model's answers).
   */
  readonly related?: readonly EvidenceView[];
  readonly nearbyTopics: readonly string[];
  readonly refusal: null;
  /** Shown before the answer when confidence is medium ("I'm not certain this answers your question…"); null when high. */
  readonly caveat: string | null;
}

/** A refusal: why in plain words, and what nearby topics the KB does cover. */
export interface Abstained extends DecisionCommon {
  readonly decision: 'abstain';
  readonly answer: null;
  readonly evidence: readonly EvidenceView[];
  /** What a refusal offers instead: topics near the question that the KB does cover. */
  readonly nearbyTopics: readonly string[];
  /** The plain-words refusal shown to the user. */
  readonly refusal: string;
  /** A refusal carries no caveat (it is one). */
  readonly caveat: null;
  /**
   * The best retrieved facts and why each did not answer (the interaction row keeps them for the console);
   * absent when nothing was retrieved or the gate could not run. Not part of the ask's reply (see `ask()`).
   */
  readonly considered?: readonly NearMiss[];
}

/** A decision before it is traced and recorded (what the gate and the answer layers produce). */
export type Decided = Answered | Abstained;

/** Where the ask happened: its trace, how long it took and its interaction row. */
interface Delivered {
  readonly traceId: string;
  readonly latencyMs: number;
  readonly interactionId: number | null;
}

/**
 * The outcome of one ask: the JSON contract of `candor ask --json` and `POST /api/ask`.
 * A union on `decision`: an answer has its text and no refusal, a refusal the reverse.
 */
export type Decision = (Answered & Delivered) | (Abstained & Delivered);

/** The grounding check's support score, when a model answer was checked (its verdict carries it as `score`). */
export function groundingSupport(decision: Pick<Decided, 'reasons'>): number | null {
  return decision.reasons.find((v) => v.layer === 'grounding')?.score ?? null;
}

/** True for the extractive fallback: the model's draft was withheld and the answer quotes the sources instead. */
export function quotedInstead(decision: Pick<Decided, 'decision' | 'reasons'>): boolean {
  return decision.decision === 'answer' && decision.reasons.some((v) => v.code === 'draft_withheld');
}

/**
 * The reason a metric or trace names for a decision: a refusal's deciding code; `draft_withheld` for an answer that
 * quotes the sources because the model's draft was withheld; `none` for any other answer.
 */
export function reasonLabel(decision: Pick<Decided, 'decision' | 'reasons'>): string {
  if (decision.decision === 'abstain') return decision.reasons[0]?.code ?? 'unknown';
  return quotedInstead(decision) ? 'draft_withheld' : 'none';
}
