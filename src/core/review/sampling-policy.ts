import { mulberry32, type RandomSource } from '../agreement/seeded-random.js';
import type { Verdict } from '../gate/types.js';

/** An interaction that may be sampled for review. */
export interface SampleCandidate {
  readonly id: number;
  readonly decision: 'answer' | 'abstain';
  readonly channel: string;
  /** The deciding reason of a refusal; null for answers. */
  readonly reason: string | null;
  readonly verdicts: readonly Verdict[];
}

export interface SamplingPolicy {
  /** Share of answered interactions to sample, per stratum. */
  readonly answeredRate: number;
  /** Share of abstentions to sample, per stratum. */
  readonly abstainedRate: number;
  /** Overrides by reason code (e.g. `{ low_margin: 0.5 }`) or channel (`{ "channel:teams": 0.2 }`). */
  readonly rateOverrides?: Readonly<Record<string, number>>;
  /** At most this many per run, shared fairly across strata. */
  readonly maxPerRun: number;
  readonly seed: number;
}

export interface SampledItem {
  readonly id: number;
  /** "decision|channel|reason". */
  readonly stratum: string;
  /** Relative distance of the deciding score from its threshold; null when the deciding layer has no score. */
  readonly nearness: number | null;
}

/** The stratum of an interaction: decision × channel × reason. */
export function stratumOf(c: Pick<SampleCandidate, 'decision' | 'channel' | 'reason'>): string {
  return `${c.decision}|${c.channel}|${c.reason ?? 'none'}`;
}

/**
 * How close a decision was: for a refusal, |score − threshold| / threshold of
 * the deciding layer; for an answer, the smallest relative headroom of any
 * layer with a score. Small = a near call, most worth a reviewer's time.
 */
export function nearness(c: Pick<SampleCandidate, 'decision' | 'verdicts'>): number | null {
  const scored = (v: Verdict) => v.score !== undefined && v.threshold !== undefined && v.threshold > 0;
  const rel = (v: Verdict) => Math.abs((v.score as number) - (v.threshold as number)) / (v.threshold as number);
  if (c.decision === 'abstain') {
    const deciding = c.verdicts[0];
    return deciding && scored(deciding) ? rel(deciding) : null;
  }
  const headrooms = c.verdicts.filter(scored).map(rel);
  return headrooms.length > 0 ? Math.min(...headrooms) : null;
}

/**
 * Stratified sampling: in each stratum, round(rate × size) items (the
 * fraction rounded up or down at random, so small strata are sampled at the
 * right rate on average), near calls first, ties in a seeded random order.
 * Already-sampled interactions are never chosen again. When the strata ask for
 * more than `maxPerRun`, each stratum keeps an equal share (its best items),
 * and unused share passes to strata that have more.
 */
export function chooseSamples(
  candidates: readonly SampleCandidate[],
  alreadySampled: ReadonlySet<number>,
  policy: SamplingPolicy,
): SampledItem[] {
  const random = mulberry32(policy.seed);
  const strata = new Map<string, SampleCandidate[]>();
  for (const c of candidates) {
    if (alreadySampled.has(c.id)) continue;
    const key = stratumOf(c);
    const list = strata.get(key);
    if (list) list.push(c);
    else strata.set(key, [c]);
  }
  const picks: SampledItem[][] = [];
  for (const [stratum, items] of [...strata].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const want = randomRound(rateFor(items[0] as SampleCandidate, policy) * items.length, random);
    const ordered = shuffle(items, random)
      .map((c) => ({ id: c.id, stratum, nearness: nearness(c) }))
      .sort((a, b) => (a.nearness ?? Infinity) - (b.nearness ?? Infinity));
    picks.push(ordered.slice(0, want));
  }
  return fairShare(picks, policy.maxPerRun).sort((a, b) => a.id - b.id);
}

function rateFor(c: SampleCandidate, policy: SamplingPolicy): number {
  const o = policy.rateOverrides ?? {};
  const rate =
    (c.reason !== null ? o[c.reason] : undefined) ??
    o[`channel:${c.channel}`] ??
    (c.decision === 'answer' ? policy.answeredRate : policy.abstainedRate);
  return Math.min(1, Math.max(0, rate));
}

function randomRound(x: number, random: RandomSource): number {
  const floor = Math.floor(x);
  return floor + (random() < x - floor ? 1 : 0);
}

function shuffle<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Takes from each list in turns (its best first) until `max` items are taken or every list is empty. */
function fairShare<T>(lists: readonly (readonly T[])[], max: number): T[] {
  const out: T[] = [];
  for (let round = 0; out.length < max; round++) {
    let took = false;
    for (const list of lists) {
      if (out.length >= max) break;
      const item = list[round];
      if (item !== undefined) {
        out.push(item);
        took = true;
      }
    }
    if (!took) break;
  }
  return out;
}
