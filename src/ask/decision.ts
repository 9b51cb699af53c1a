import type { Verdict } from '../core/gate/types.js';

/** A cited fact as callers see it; `factId` is the external id when the fact has one. */
export interface EvidenceView {
  readonly factId: string;
  readonly text: string;
  readonly source: string;
  readonly score: number;
}

/** The outcome of one ask: the JSON contract of `candor ask --json` and `POST /api/ask`. */
export interface Decision {
  readonly decision: 'answer' | 'abstain';
  readonly answer: string | null;
  /** For an abstention, every layer's verdict with the deciding one first; for an answer, every (passing) verdict. */
  readonly reasons: readonly Verdict[];
  /** Exactly the facts the answer cites (none for an abstention). */
  readonly evidence: readonly EvidenceView[];
  /** What a refusal offers instead: topics near the question that the KB does cover. */
  readonly nearbyTopics: readonly string[];
  /** The plain-words refusal shown to the user (null for answers). */
  readonly refusal: string | null;
  readonly kb: { readonly name: string; readonly version: number };
  readonly traceId: string;
  readonly latencyMs: number;
  readonly interactionId: number | null;
  /** With a model configured: which model and prompt (id@version) decided. Absent in extractive mode. */
  readonly generation?: { readonly model: string; readonly prompt: string };
}
