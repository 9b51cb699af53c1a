import { compareRaters, type RaterComparison } from '../agreement/compare-raters.js';
import { ABSTENTION_RULE_ID, detectAbstention } from './abstention-detector.js';

export interface DetectInput {
  readonly id: string;
  readonly question: string;
  readonly response: string;
  /** The reference: did the reply abstain ("yes") or not ("no"). */
  readonly label?: 'yes' | 'no';
}

export interface DetectedRow {
  readonly id: string;
  /** The detector's verdict: "yes" it abstains, "no" it answers. */
  readonly verdict: 'yes' | 'no';
  readonly label?: 'yes' | 'no';
  readonly why: string;
  readonly shape: string | null;
}

/**
 * `candor eval detect --json`:
 *   { detector, n, abstained, labelled, rows: [{ id, verdict, label?, why, shape }],
 *     agreement: null | { items, percentAgreement, cohensKappa, kappaCI, confusion, perClass,
 *                         disagreements: [{ id, label, verdict, why, question, response }] } }
 * Confusion rows are the reference labels, columns the detector, categories ["yes", "no"].
 */
export interface DetectReport {
  readonly detector: string;
  readonly n: number;
  readonly abstained: number;
  readonly labelled: number;
  readonly rows: readonly DetectedRow[];
  readonly agreement: (RaterComparison & { readonly disagreements: readonly Disagreement[] }) | null;
}

export interface Disagreement {
  readonly id: string;
  readonly label: 'yes' | 'no';
  readonly verdict: 'yes' | 'no';
  readonly why: string;
  readonly question: string;
  readonly response: string;
}

/** Runs the rule detector over replies and, where they carry labels, measures it against them (seeded bootstrap). */
export function detectReport(inputs: readonly DetectInput[], options: { seed?: number; iterations?: number } = {}): DetectReport {
  const rows: DetectedRow[] = inputs.map((input) => {
    const v = detectAbstention(input.response, input.question);
    return { id: input.id, verdict: v.abstains ? 'yes' : 'no', ...(input.label ? { label: input.label } : {}), why: v.why, shape: v.shape };
  });
  const labelled = rows.flatMap((row, i) => (row.label ? [{ row, input: inputs[i] as DetectInput, label: row.label }] : []));
  const agreement =
    labelled.length === 0
      ? null
      : {
          ...compareRaters(
            labelled.map((l) => l.label),
            labelled.map((l) => l.row.verdict),
            ['yes', 'no'],
            { seed: options.seed ?? 1, iterations: options.iterations ?? 1000 },
          ),
          disagreements: labelled
            .filter((l) => l.label !== l.row.verdict)
            .map(({ row, input, label }) => ({
              id: row.id,
              label,
              verdict: row.verdict,
              why: row.why,
              question: input.question,
              response: input.response,
            })),
        };
  return {
    detector: ABSTENTION_RULE_ID,
    n: rows.length,
    abstained: rows.filter((r) => r.verdict === 'yes').length,
    labelled: labelled.length,
    rows,
    agreement,
  };
}
