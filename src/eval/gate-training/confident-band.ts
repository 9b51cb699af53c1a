import type { AnswerabilityModel } from '../../core/gate/answerability-model.js';
import { predictLogistic } from '../../core/learn/logistic-regression.js';
import type { GateRow } from './gate-rows.js';

/**
 * `high` is a promise: of the answers given plainly, at least this share must be right (on every training
 * set, on average), measured as the sets report it — answerable questions and the refusable kind they count.
 */
export const HIGH_PRECISION_TARGET = 0.95;

/** The kind of question a set's figures count as refusable: its adversarial unanswerables when it has reported ones, else left-out twins. */
export function refusableKind(rows: readonly GateRow[]): 'unanswerable' | 'left-out' {
  return rows.some((r) => r.reported && r.kind === 'unanswerable') ? 'unanswerable' : 'left-out';
}

/** The rows a set's figures count: reported answerable questions and the refusable kind. */
export function reportedRows(rows: readonly GateRow[]): GateRow[] {
  const sets = [...new Set(rows.map((r) => r.set))];
  return sets.flatMap((set) => {
    const mine = rows.filter((r) => r.set === set && r.reported);
    const negative = refusableKind(mine);
    return mine.filter((r) => r.kind === 'answerable' || r.kind === negative);
  });
}

/**
 * Precision of `high` at a band, per set: of the answers scoring at least `band` and not capped by a tier
 * signal (see tier-caps.ts), the share that is right. Null for a set with no such answer.
 */
export function highPrecision(rows: readonly GateRow[], model: AnswerabilityModel, band: number): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const set of new Set(rows.map((r) => r.set))) {
    const high = rows.filter(
      (r) =>
        r.set === set && !r.ruleRefused && !(r.caps.length > 0) && predictLogistic(model, r.features) >= Math.max(band, model.threshold),
    );
    out.set(set, high.length === 0 ? null : high.filter((r) => r.label === 1).length / high.length);
  }
  return out;
}

/** …while at least this share of the right answers stays `high`: a caveat on most right answers would be a blanket, not a signal. */
export const MIN_RIGHT_HIGH = 0.5;

/** Per set, the share of its right answers (answered at the threshold) that a band leaves `high`. */
function rightKeptHigh(rows: readonly GateRow[], model: AnswerabilityModel, band: number): number[] {
  return [...new Set(rows.map((r) => r.set))].map((set) => {
    const right = rows.filter(
      (r) => r.set === set && r.label === 1 && !r.ruleRefused && predictLogistic(model, r.features) >= model.threshold,
    );
    const high = right.filter((r) => r.caps.length === 0 && predictLogistic(model, r.features) >= band);
    return right.length === 0 ? 1 : high.length / right.length;
  });
}

/**
 * The high-confidence band, from the threshold up on a 0.01 grid: the lowest at which the precision of `high`
 * answers (uncapped, scoring at least the band), averaged over the training sets, reaches HIGH_PRECISION_TARGET
 * — but never so high that fewer than MIN_RIGHT_HIGH of the right answers (averaged over the sets) stay `high`.
 * When the target cannot be met within that floor, the highest band the floor allows: the most precise `high`
 * the signals can give without caveating most right answers. Between the threshold and the band, answers are caveated.
 */
export function confidentBand(rows: readonly GateRow[], model: AnswerabilityModel): number {
  const counted = reportedRows(rows);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const precision = (band: number) => mean([...highPrecision(counted, model, band).values()].map((p) => p ?? 1));
  let band = Math.round(model.threshold * 100) / 100;
  while (band + 0.01 < 1 && precision(band) < HIGH_PRECISION_TARGET && mean(rightKeptHigh(counted, model, band + 0.01)) >= MIN_RIGHT_HIGH)
    band = Number((band + 0.01).toFixed(2));
  return band;
}
