import { GROUNDING_WEIGHTS, type GroundingWeights } from '../gate/grounding.js';
import { GRID } from './threshold-sweep.js';

/** One scored draft: the grounding check's support, and whether its evidence supports it. */
export interface GroundingPoint {
  readonly support: number;
  readonly supported: boolean;
}

/** What one grounding threshold would do: supported drafts passed, unsupported drafts flagged (withheld). */
export interface GroundingSweepPoint {
  readonly threshold: number;
  readonly passedSupported: number;
  readonly flaggedUnsupported: number;
}

export interface GroundingRecommendation extends GroundingSweepPoint {
  /** Whether the target share of supported drafts passes at that threshold. */
  readonly meetsTarget: boolean;
  readonly why: string;
}

/** @default the target: nine in ten of a KB's supported drafts pass the check. */
export const GROUNDING_TARGET_PASSED = 0.9;

/** Each grid threshold's outcome (a draft passes when its support reaches the threshold), ascending. */
export function sweepGrounding(points: readonly GroundingPoint[], grid: readonly number[] = GRID): GroundingSweepPoint[] {
  const supported = points.filter((p) => p.supported);
  const unsupported = points.filter((p) => !p.supported);
  return grid.map((threshold) => ({
    threshold,
    passedSupported: share(supported.filter((p) => p.support >= threshold).length, supported.length),
    flaggedUnsupported: share(unsupported.filter((p) => p.support < threshold).length, unsupported.length),
  }));
}

/**
 * The highest threshold at which at least `target` of the supported drafts pass: as many unsupported drafts as
 * possible are withheld without withholding more than 1 − target of the supported ones. When even the lowest
 * threshold misses the target (drafts citing nothing score 0), that one, and the recommendation says so.
 */
export function recommendGroundingThreshold(
  sweep: readonly GroundingSweepPoint[],
  target: number = GROUNDING_TARGET_PASSED,
): GroundingRecommendation {
  const [lowest] = sweep;
  if (!lowest) throw new Error('nothing to calibrate on: no thresholds swept');
  const reaching = sweep.filter((p) => p.passedSupported >= target).at(-1);
  if (reaching)
    return { ...reaching, meetsTarget: true, why: `the highest threshold at which at least ${pct(target)} of the supported drafts pass` };
  return {
    ...lowest,
    meetsTarget: false,
    why: `no threshold passes ${pct(target)} of the supported drafts (the lowest passes ${pct(lowest.passedSupported)}): their support is 0, they cite nothing or state a figure no cited fact holds`,
  };
}

/** The area under the ROC curve: the chance a supported draft scores above an unsupported one (ties count half). */
export function groundingAuc(points: readonly GroundingPoint[]): number {
  const supported = points.filter((p) => p.supported).map((p) => p.support);
  const unsupported = points.filter((p) => !p.supported).map((p) => p.support);
  if (supported.length === 0 || unsupported.length === 0) return 0.5;
  let wins = 0;
  for (const s of supported) for (const u of unsupported) wins += s > u ? 1 : s === u ? 0.5 : 0;
  return Math.round((wins / (supported.length * unsupported.length)) * 10_000) / 10_000;
}

/** The grounding check a threshold is calibrated for, by its weights: a threshold set for other weights means another score. */
export function groundingCheckRef(weights: GroundingWeights = GROUNDING_WEIGHTS): string {
  const { keyWord, claimShare, negation, modality, comparative } = weights;
  return `grounding:kw${keyWord}/cs${claimShare}/neg${negation}/mod${modality}/cmp${comparative}`;
}

function share(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 10_000) / 10_000;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
