/**
 * One calibration observation: a score the gate gave, and what answering at that
 * score would have been. `answerable` items should be answered (and answering is
 * right only when `right`); `refusable` ones (a left-out twin, an unanswerable
 * question, a reviewer's "should have refused") should be refused.
 * `ruleRefused`: a crisp rule refuses it whatever the threshold.
 */
export interface CalibrationPoint {
  readonly score: number;
  readonly kind: 'answerable' | 'refusable';
  readonly right: boolean;
  readonly ruleRefused: boolean;
}

/** What one threshold would do: answered right (share of answerable) and abstained (share of refusable). */
export interface SweepPoint {
  readonly threshold: number;
  readonly answeredRight: number;
  readonly abstained: number;
}

export interface Recommendation {
  readonly threshold: number;
  readonly answeredRight: number;
  readonly abstained: number;
  /** Whether the target abstention is reached at that threshold. */
  readonly meetsTarget: boolean;
  readonly why: string;
}

/** Thresholds on a 0.01 grid from 0.01 to 0.99: what a person can set and read. */
export const GRID: readonly number[] = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);

/** Each grid threshold's outcome, in ascending threshold order. */
export function sweepThresholds(points: readonly CalibrationPoint[], grid: readonly number[] = GRID): SweepPoint[] {
  const answerable = points.filter((p) => p.kind === 'answerable');
  const refusable = points.filter((p) => p.kind === 'refusable');
  const answers = (p: CalibrationPoint, t: number) => !p.ruleRefused && p.score >= t;
  return grid.map((threshold) => ({
    threshold,
    answeredRight: share(answerable.filter((p) => p.right && answers(p, threshold)).length, answerable.length),
    abstained: share(refusable.filter((p) => !answers(p, threshold)).length, refusable.length),
  }));
}

/**
 * The threshold for a target abstention: the lowest one whose abstention
 * reaches the target (so as many answerable questions as possible stay
 * answered). When no threshold reaches it, the one with the most abstention —
 * and the recommendation says the target is out of reach.
 */
export function recommendThreshold(sweep: readonly SweepPoint[], targetAbstention: number): Recommendation {
  if (sweep.length === 0) throw new Error('nothing to calibrate on: no thresholds swept');
  const reaching = sweep.find((p) => p.abstained >= targetAbstention);
  if (reaching) {
    return {
      ...reaching,
      meetsTarget: true,
      why: `the lowest threshold that refuses at least ${pct(targetAbstention)} of what should be refused`,
    };
  }
  const most = sweep.reduce((best, p) => (p.abstained > best.abstained ? p : best));
  return {
    ...most,
    meetsTarget: false,
    why: `no threshold reaches ${pct(targetAbstention)} abstention; this one refuses the most (${pct(most.abstained)})`,
  };
}

function share(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 10_000) / 10_000;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** At most this share of the right answers may carry the caveat: it is a signal, not a blanket (the model's band and a KB's alike). */
export const CAVEAT_BUDGET = 0.2;

/**
 * A KB's confident band for a threshold: the highest score, from the threshold up on the grid, below
 * which at most CAVEAT_BUDGET of the answers that would be right (answerable, answered, citing a right
 * fact) carry the caveat. Answers between the threshold and the band are caveated.
 */
export function confidentBand(points: readonly CalibrationPoint[], threshold: number): number {
  const right = points.filter((p) => p.kind === 'answerable' && p.right && !p.ruleRefused && p.score >= threshold);
  let band = threshold;
  if (right.length === 0) return band;
  for (const t of GRID) {
    if (t <= threshold) continue;
    if (right.filter((p) => p.score < t).length / right.length > CAVEAT_BUDGET) break;
    band = t;
  }
  return band;
}
