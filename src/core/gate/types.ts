/** Why Candor refused; stable codes that telemetry, storage and reviewers rely on. */
export type ReasonCode =
  | 'no_evidence'
  | 'low_relevance'
  | 'unknown_entity'
  | 'low_coverage'
  | 'low_margin'
  | 'answer_type_mismatch'
  | 'llm_unanswerable'
  | 'ungrounded'
  | 'llm_unavailable'
  | 'invalid_output'
  | 'unavailable';

/** One layer's verdict; `code` is null when the layer passed. */
export interface Verdict {
  readonly layer: string;
  readonly pass: boolean;
  readonly code: ReasonCode | null;
  readonly detail: string;
  readonly score?: number;
  readonly threshold?: number;
}

/** What a question asks for, when its wording says so. */
export type ExpectedAnswer = 'amount' | 'number' | 'date' | 'party' | 'duration';

export interface QuestionAnalysis {
  readonly text: string;
  /** Distinct content terms (stemmed). */
  readonly terms: readonly string[];
  /** Code-like tokens (ADR-0050, IR8A, Form 12B), normalised to lower case without separators. */
  readonly identifiers: readonly string[];
  /** How each identifier was written in the question, for messages (normalised id → as typed). */
  readonly identifierText?: Readonly<Record<string, string>>;
  /** Names inside the question, each as alternative terms (an acronym and its long form). */
  readonly names: readonly (readonly string[])[];
  readonly expects: ExpectedAnswer | null;
}

/** A retrieved fact with its gate score (normalised relevance × confidence). */
export interface EvidenceFact {
  readonly factId: number;
  readonly externalId: string | null;
  readonly text: string;
  readonly source: string;
  readonly heading: string | null;
  readonly confidence: number;
  /** Normalised lexical similarity S in [0, 1]. */
  readonly similarity: number;
  /** L2R relevance: similarity × confidence. */
  readonly score: number;
  /** Cosine similarity to the question's embedding, when vector retrieval is on. */
  readonly cosine?: number;
  readonly terms: ReadonlySet<string>;
}

/** What the gate may ask of the whole knowledge base. */
export interface Vocabulary {
  /** True when some (non-excluded) fact holds the term. */
  has(term: string): boolean;
  /** Inverse document frequency (positive; larger = rarer). */
  idf(term: string): number;
}

export interface GateThresholds {
  /** α: the best fact's relevance must reach this. */
  readonly minRelevance: number;
  /** Share (IDF-weighted) of the question's terms the cited evidence must hold. */
  readonly minCoverage: number;
  /** How far the best passage must stand out from the next four: (s1 − mean(s2..s5)) / s1. */
  readonly minMargin: number;
  /** Refuse questions naming identifiers or names the KB never mentions. */
  readonly checkEntities: boolean;
  /** Refuse how-much/when/who questions whose evidence holds no such value. */
  readonly checkAnswerType: boolean;
  /** What the relevance layer compares: the lexical L2R score (default) or, with embeddings, cosine × confidence. */
  readonly relevanceSignal?: 'lexical' | 'cosine';
  /** α for the cosine signal. */
  readonly minCosine?: number;
}

export interface GateInput {
  readonly question: QuestionAnalysis;
  /** The facts an answer would cite, best first. */
  readonly evidence: readonly EvidenceFact[];
  /** Everything retrieval returned (top-k), best first. */
  readonly ranked: readonly EvidenceFact[];
  readonly vocabulary: Vocabulary;
  readonly thresholds: GateThresholds;
}

export type GateLayer = (input: GateInput) => Verdict;
