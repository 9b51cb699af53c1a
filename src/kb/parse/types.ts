export type DocumentFormat = 'text' | 'markdown' | 'html';

export interface ParsedFact {
  /** The atomic fact: one sentence, list item or table row; whitespace-normalised, no markup. */
  text: string;
  /** Nearest section heading path, e.g. "Coverage > Premiums"; null when no heading precedes the fact. */
  heading: string | null;
  /** 0-based ordinal of the fact within the document. */
  position: number;
}

export interface ParsedDocument {
  title: string | null;
  facts: ParsedFact[];
}
