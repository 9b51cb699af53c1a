export type DocumentFormat = 'text' | 'markdown' | 'html';

export interface ParsedFact {
  /** The atomic fact: one sentence, list item or table row; whitespace-normalised, no markup. */
  text: string;
  /** Nearest section heading path, e.g. "Coverage > Premiums"; null when no heading precedes the fact. */
  heading: string | null;
  /** 0-based ordinal of the fact within the document. */
  position: number;
  /** Set on a table row or label–value row kept whole as one fact (counted apart in ingest summaries). */
  row?: true;
  /** 1-based page number, for paged formats (PDF). */
  page?: number;
}

export interface ParsedDocument {
  title: string | null;
  facts: ParsedFact[];
  /** Where people can open the document, when it says (an HTML canonical link, a PDF's metadata): http(s) only. */
  url?: string | null;
}
