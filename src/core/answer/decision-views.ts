import type { Answerability } from '../gate/gate.js';

// What callers, the store's JSON columns and the console see of a decision's evidence and answerability.

/** A cited fact as callers see it; `factId` is the external id when the fact has one. */
export interface EvidenceView {
  readonly factId: string;
  readonly text: string;
  readonly source: string;
  readonly score: number;
  /** The document's title (null when it has none: channels fall back to the source). */
  readonly title?: string | null;
  /** The section the fact sits in (its heading path), for the citation. */
  readonly section?: string | null;
  /** A link people can open, when the source has one. */
  readonly url?: string | null;
  /** The knowledge base the fact is from: set when several KBs were searched together. */
  readonly kb?: string;
}

/**
 * Where a decision's threshold came from: `kb@N` (that KB's calibrated setting, version N),
 * `config` (CANDOR_MIN_ANSWERABILITY), `model` (its default), or `override` (an evaluation sweep).
 */
export type ThresholdSource = `kb@${number}` | 'config' | 'model' | 'override';

export interface AnswerabilityView extends Omit<Answerability, 'contributions' | 'features'> {
  readonly thresholdSource: ThresholdSource;
  /** Feature values, rounded. */
  readonly features: Readonly<Record<string, number>>;
  /** Each feature's pull on the log-odds (negative = towards refusing), rounded. */
  readonly contributions: Readonly<Record<string, number>>;
}
