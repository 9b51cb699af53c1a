import type { ExampleTotals } from './example-totals.js';
import type { ScoredRow } from './score-replies.js';

/** What `npm run eval:example` reports: the KB asked, the mode, and each set's figures and rows. */
export interface ExampleReport {
  readonly kb: { readonly name: string; readonly version: number; readonly documents: number; readonly facts: number };
  /** `extractive` without a model (the embedded default), `llm` with one. */
  readonly mode: 'extractive' | 'llm';
  readonly totals: ExampleTotals;
  readonly rows: readonly ScoredRow[];
  /** A second set asked of the same KB and reported apart (the fresh set, never used to fit): absent when not asked. */
  readonly fresh?: QuestionSetReport;
}

/** One set's figures and rows. */
export interface QuestionSetReport {
  readonly name: string;
  readonly totals: ExampleTotals;
  readonly rows: readonly ScoredRow[];
}
