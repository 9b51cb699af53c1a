/** Why Candor refused; stable codes that telemetry, storage and reviewers rely on. */
export type ReasonCode =
  | 'no_evidence'
  | 'low_relevance'
  | 'unknown_entity'
  | 'low_coverage'
  | 'low_margin'
  | 'answer_type_mismatch'
  | 'number_out_of_range'
  | 'llm_unanswerable'
  | 'ungrounded'
  | 'llm_unavailable'
  | 'invalid_output'
  | 'unavailable';

/**
 * Why an answer is not `high` (it carries a caveat); stable codes, in `reasons` as passing `confidence` verdicts.
 * See tier-caps.ts; `below_confident_band` is the answerability score under the model's (or KB's) confident band.
 */
export type TierCode =
  | 'below_confident_band'
  | 'number_unmatched'
  | 'exclusion_outranks'
  | 'exclusion_exception'
  | 'lead_not_best'
  | 'qualifier_contradicted'
  | 'lead_in_line'
  /** With a model: its draft failed the grounding or entailment check, so the answer quotes the sources instead. */
  | 'draft_withheld';

/**
 * One layer's verdict. `code` is null when the layer passed, except for the `confidence` layer, whose passing
 * verdicts each name a reason (a TierCode) that kept the answer from `high`.
 */
export interface Verdict {
  readonly layer: string;
  readonly pass: boolean;
  readonly code: ReasonCode | TierCode | null;
  readonly detail: string;
  readonly score?: number;
  readonly threshold?: number;
  /** Where `threshold` came from, for the grounding check: `kb@N` (the KB's calibrated setting, version N) or `default`. */
  readonly thresholdSource?: string;
}

/** What a question asks for, when its wording says so. */
export type ExpectedAnswer = 'amount' | 'number' | 'date' | 'party' | 'duration';

export interface QuestionAnalysis {
  readonly text: string;
  /** Distinct content terms (stemmed). */
  readonly terms: readonly string[];
  /** How each term was first written in the question, for messages: a user never sees a stem. */
  readonly wordOf?: Readonly<Record<string, string>>;
  /** Code-like tokens (ADR-0050, IR8A, Form 12B), normalised to lower case without separators. */
  readonly identifiers: readonly string[];
  /** How each identifier was written in the question, for messages (normalised id → as typed). */
  readonly identifierText?: Readonly<Record<string, string>>;
  /**
   * Names inside the question (words shaped like names: inner capitals, acronyms, or defined
   * acronyms with their long form), each as alternative terms. Capitalised common words are not names.
   */
  readonly names: readonly (readonly string[])[];
  readonly expects: ExpectedAnswer | null;
}

/** A retrieved fact with its gate score (normalised relevance × confidence). */
export interface EvidenceFact {
  readonly factId: number;
  readonly externalId: string | null;
  readonly text: string;
  /** Where the fact came from, for people: never used to decide anything. */
  readonly source: string;
  readonly heading: string | null;
  /** The title of the fact's document, for citations people read; null for ready-made facts and untitled documents. */
  readonly title?: string | null;
  /** Where people can open the source (see facts.url); null or absent when unknown. */
  readonly url?: string | null;
  /**
   * The passage the fact belongs to: its document and section for documents; for a ready-made
   * (.jsonl) fact, the passage it names or else the fact alone. Facts of one passage are one candidate answer.
   */
  readonly passage: string;
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
  /** The IDF of a term no fact holds: the largest any term can have in this KB. */
  unseenIdf(): number;
}

export interface GateSettings {
  /** The answerability score (P(answerable)) must reach this. */
  readonly minAnswerability: number;
  /** Answers scoring below this carry a caveat (a KB's calibrated band); unset: the model's band. */
  readonly confidentAbove?: number;
  /** Refuse questions naming identifiers (ADR-0050, Form 12B) the KB never mentions. */
  readonly checkEntities: boolean;
  /** Let the answer-type signal count (a how-much/when/who question whose evidence holds no such value). */
  readonly checkAnswerType: boolean;
  /** With embeddings: also refuse when the best cosine × confidence is below `minCosine`. @default 'lexical' (off) */
  readonly relevanceSignal?: 'lexical' | 'cosine';
  /** α for the cosine rule. */
  readonly minCosine?: number;
}

export interface GateInput {
  readonly question: QuestionAnalysis;
  /** Everything retrieval returned (top-k), best first. */
  readonly ranked: readonly EvidenceFact[];
  readonly vocabulary: Vocabulary;
  readonly settings: GateSettings;
}

export type GateLayer = (input: GateInput) => Verdict;
