import { FEATURE_NAMES } from '../../core/gate/answerability-features.js';
import type { AnswerabilityModel } from '../../core/gate/answerability-model.js';
import { fitLogistic } from '../../core/learn/logistic-regression.js';
import type { GateRow } from './gate-rows.js';

export interface TrainOptions {
  readonly id: string;
  readonly version: number;
  /** L2 penalty per unit of sample weight. @default 0.01 */
  readonly l2?: number;
  /** Weight of out-of-scope questions relative to each other kind of negative. @default 0.5 */
  readonly outOfScopeWeight?: number;
  /** @default 0.5: with balanced weights, the point where refusing and answering wrongly cost the same */
  readonly threshold?: number;
}

/**
 * Sample weights that give every knowledge base the same say, and within it the
 * answerable and the unanswerable half the same say; the unanswerable half is
 * shared equally by its kinds (left-out, adversarial, retrieval misses), with
 * out-of-scope questions at a reduced share — they are easy, and many.
 */
export function sampleWeights(rows: readonly GateRow[], outOfScopeWeight = 0.5): number[] {
  const group = (r: GateRow) => `${r.set}\u0000${r.label}\u0000${r.label === 1 ? '' : r.kind}`;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(group(r), (counts.get(group(r)) ?? 0) + 1);
  const negativeShare = new Map<string, number>();
  for (const key of counts.keys()) {
    const [set, label, kind] = key.split('\u0000') as [string, string, string];
    if (label === '0') negativeShare.set(set, (negativeShare.get(set) ?? 0) + (kind === 'out-of-scope' ? outOfScopeWeight : 1));
  }
  return rows.map((r) => {
    const n = counts.get(group(r)) as number;
    if (r.label === 1) return 0.5 / n;
    const share = (r.kind === 'out-of-scope' ? outOfScopeWeight : 1) / (negativeShare.get(r.set) as number);
    return (0.5 * share) / n;
  });
}

/** Fits the answerability model on gate rows: deterministic, so the same rows give the same weights. */
export function trainAnswerability(rows: readonly GateRow[], options: TrainOptions): AnswerabilityModel {
  const fit = fitLogistic(
    rows.map((r) => r.features),
    rows.map((r) => r.label),
    sampleWeights(rows, options.outOfScopeWeight),
    { l2: options.l2 ?? 0.01 },
  );
  const r = (x: number) => Number(x.toPrecision(8));
  return {
    id: options.id,
    version: options.version,
    features: [...FEATURE_NAMES],
    center: fit.center.map(r),
    scale: fit.scale.map(r),
    weights: fit.weights.map(r),
    intercept: r(fit.intercept),
    threshold: options.threshold ?? 0.5,
  };
}
