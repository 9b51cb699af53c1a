import { CAVEAT_BUDGET } from '../../core/calibrate/threshold-sweep.js';
import type { AnswerabilityModel } from '../../core/gate/answerability-model.js';
import { predictLogistic } from '../../core/learn/logistic-regression.js';
import type { GateRow } from './gate-rows.js';
import { sampleWeights } from './train-answerability.js';

export { CAVEAT_BUDGET };

/**
 * The high-confidence band: the highest score, from the threshold up on a 0.01 grid, below which
 * answers carry the caveat while at most CAVEAT_BUDGET of the right answers (weighted as training
 * weighs rows: every KB the same say) carry it. Between the threshold and the band, answers are caveated.
 */
export function confidentBand(rows: readonly GateRow[], model: AnswerabilityModel, outOfScopeWeight?: number): number {
  const weights = sampleWeights(rows, outOfScopeWeight);
  const right = rows
    .map((row, i) => ({ row, w: weights[i] as number, score: predictLogistic(model, row.features) }))
    .filter(({ row, score }) => row.label === 1 && !row.ruleRefused && score >= model.threshold);
  const total = right.reduce((sum, r) => sum + r.w, 0);
  const caveated = (t: number) => right.reduce((sum, r) => sum + (r.score < t ? r.w : 0), 0) / total;
  let band = Math.round(model.threshold * 100) / 100;
  while (band + 0.01 < 1 && caveated(band + 0.01) <= CAVEAT_BUDGET) band = Number((band + 0.01).toFixed(2));
  return band;
}
