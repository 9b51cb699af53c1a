// Sets the grounding check's weights and threshold on published model answers (issue 22) and reports how
// they transfer. Input: the `candor eval grounding` responses file (default: what `npm run
// data:policybench-grounding` writes). Answers the rule judge reads as declining are left out (they are
// refusals, not grounding failures). For each weighting on a small grid, the production check's support
// score per answer; the weighting with the best AUC on the training answers wins (AUC needs no threshold,
// so it is the steadier choice on 111 supported answers), then the threshold is the highest at which 85%
// of the supported answers pass in EVERY training domain (issue 37: pooled, the easier domain hid that the
// other passed 72%). In-sample = trained on both domains; leave one domain out = trained on one, measured on
// the other. Other threshold rules tried for transfer are reported beside (`transferRules`), each set on one
// domain and measured on the other. Writes bench/results/grounding.json; the defaults in
// src/core/gate/grounding.ts are the in-sample choice.
import { readFileSync, writeFileSync } from 'node:fs';

import { checkGrounding, GROUNDING_THRESHOLD, GROUNDING_WEIGHTS, type GroundingWeights } from '../src/core/gate/grounding.js';
import { detectAbstention } from '../src/core/judge/abstention-detector.js';

const file = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '.data/policybench/grounding-responses.jsonl';
const PASS_TARGET = 0.85;

interface Row {
  id: string;
  question: string;
  response: string;
  context: string[];
  cited?: number[];
  supported?: boolean;
  domain?: string;
}
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Row)
  .filter((r): r is Row & { supported: boolean } => typeof r.supported === 'boolean')
  .filter((r) => !detectAbstention(r.response, r.question).abstains);

// Claims keep at least 30% of the score: below that an answer that adds words no fact states passes
// whenever the cited facts cover the question, which is not a grounding check.
const GRID: GroundingWeights[] = [];
if (process.argv.includes('--defaults-only')) GRID.push(GROUNDING_WEIGHTS);
else
  for (const keyWord of [3, 10, 30])
    for (const claimShare of [0.3, 0.5, 0.7])
      for (const negation of [0.3, 0.5, 1]) GRID.push({ ...GROUNDING_WEIGHTS, keyWord, claimShare, negation });

interface Scored {
  domain: string;
  supported: boolean;
  support: number;
}
const score = (weights: GroundingWeights): Scored[] =>
  rows.map((r) => ({
    domain: r.domain ?? 'all',
    supported: r.supported,
    support: checkGrounding(
      { answer: r.response, citations: (r.cited ?? []).map((i) => i + 1) },
      r.context.map((text) => ({ text })),
      { question: r.question, weights },
    ).support,
  }));

/** The highest threshold at which at least `target` of the supported answers reach it. */
function passQuantile(set: readonly Scored[], target = PASS_TARGET): number {
  const pos = set
    .filter((s) => s.supported)
    .map((s) => s.support)
    .sort((a, b) => a - b);
  return pos[Math.floor(pos.length * (1 - target))] ?? 0;
}
/** The lowest threshold that flags at least `target` of the unsupported answers. */
function flagQuantile(set: readonly Scored[], target: number): number {
  const neg = set
    .filter((s) => !s.supported)
    .map((s) => s.support)
    .sort((a, b) => a - b);
  return neg[Math.ceil(neg.length * target)] ?? 1;
}
/** The highest threshold at which at least PASS_TARGET of the supported answers pass in every domain of the set. */
function thresholdFor(set: readonly Scored[]): number {
  const inSet = [...new Set(set.map((s) => s.domain))];
  return Math.min(...inSet.map((d) => passQuantile(set.filter((s) => s.domain === d))));
}
const TRANSFER_RULES: Record<string, (train: readonly Scored[]) => number> = {
  'pass 85% of the supported answers in every training domain (the rule in use)': thresholdFor,
  'pass 95% of the supported answers': (train) => passQuantile(train, 0.95),
  'flag 55% of the unsupported answers': (train) => flagQuantile(train, 0.55),
  'flag 50% of the unsupported answers': (train) => flagQuantile(train, 0.5),
};
function auc(set: readonly Scored[]): number {
  const pos = set.filter((s) => s.supported);
  const neg = set.filter((s) => !s.supported);
  let wins = 0;
  for (const a of pos) for (const b of neg) wins += a.support > b.support ? 1 : a.support === b.support ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
function rates(set: readonly Scored[], t: number) {
  const pos = set.filter((s) => s.supported);
  const neg = set.filter((s) => !s.supported);
  return {
    threshold: Number(t.toFixed(4)),
    n: set.length,
    supported: pos.length,
    supportedPassed: pos.filter((s) => s.support >= t).length / pos.length,
    unsupportedFlagged: neg.filter((s) => s.support < t).length / neg.length,
    auc: auc(set),
  };
}

const started = performance.now();
const byWeights = GRID.map((weights, i) => {
  process.stderr.write(`\rscoring weighting ${i + 1}/${GRID.length}`);
  return { weights, scored: score(weights) };
});
process.stderr.write(`\r${GRID.length} weightings scored in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
const domains = [...new Set(rows.map((r) => r.domain ?? 'all'))].sort();
const best = (train: (s: Scored) => boolean) =>
  byWeights.reduce((a, b) => (auc(b.scored.filter(train)) > auc(a.scored.filter(train)) ? b : a));

const chosen = best(() => true);
const pooledThreshold = thresholdFor(chosen.scored);
const defaults = byWeights.find((b) => JSON.stringify(b.weights) === JSON.stringify(GROUNDING_WEIGHTS)) ?? {
  weights: GROUNDING_WEIGHTS,
  scored: score(GROUNDING_WEIGHTS),
};
const result = {
  file,
  passTarget: PASS_TARGET,
  grid: GRID.length,
  inSample: {
    weights: chosen.weights,
    pooled: rates(chosen.scored, pooledThreshold),
    perDomain: Object.fromEntries(
      domains.map((d) => [
        d,
        rates(
          chosen.scored.filter((s) => s.domain === d),
          pooledThreshold,
        ),
      ]),
    ),
  },
  defaults: {
    weights: GROUNDING_WEIGHTS,
    pooled: rates(defaults.scored, GROUNDING_THRESHOLD),
    perDomain: Object.fromEntries(
      domains.map((d) => [
        d,
        rates(
          defaults.scored.filter((s) => s.domain === d),
          GROUNDING_THRESHOLD,
        ),
      ]),
    ),
  },
  leaveOneDomainOut: Object.fromEntries(
    domains.map((d) => {
      const trained = best((s) => s.domain !== d);
      const t = thresholdFor(trained.scored.filter((s) => s.domain !== d));
      return [
        d,
        {
          weights: trained.weights,
          ...rates(
            trained.scored.filter((s) => s.domain === d),
            t,
          ),
        },
      ];
    }),
  ),
  transferRules: Object.fromEntries(
    Object.entries(TRANSFER_RULES).map(([rule, fit]) => [
      rule,
      Object.fromEntries(
        domains.map((d) => [
          d,
          rates(
            defaults.scored.filter((s) => s.domain === d),
            fit(defaults.scored.filter((s) => s.domain !== d)),
          ),
        ]),
      ),
    ]),
  ),
  curve: Array.from({ length: 41 }, (_, i) => i / 40).map((t) => rates(defaults.scored, t)),
};
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const line = (name: string, r: ReturnType<typeof rates>) =>
  `${name.padEnd(36)} threshold ${r.threshold.toFixed(3)}  supported passed ${pct(r.supportedPassed)}  unsupported flagged ${pct(r.unsupportedFlagged)}  AUC ${r.auc.toFixed(3)}  n ${r.n}`;
console.log(`chosen on both domains: ${JSON.stringify(chosen.weights)}`);
console.log(line('in-sample, both domains', result.inSample.pooled));
for (const d of domains) console.log(line(`in-sample, ${d}`, result.inSample.perDomain[d]!));
for (const d of domains) {
  const r = result.leaveOneDomainOut[d]!;
  console.log(line(`${d}, set on the other domain`, r), JSON.stringify(r.weights));
}
console.log(line('the defaults in grounding.ts', result.defaults.pooled));
for (const d of domains) console.log(line(`the defaults in grounding.ts, ${d}`, result.defaults.perDomain[d]!));
console.log('threshold rules tried for transfer (default weights; set on the other domain, measured on this one):');
for (const [rule, byDomain] of Object.entries(result.transferRules))
  for (const d of domains) console.log(line(`  ${d}, set on the other domain`, byDomain[d]!), `(${rule})`);
if (!process.argv.includes('--no-write')) writeFileSync('bench/results/grounding.json', `${JSON.stringify(result, null, 2)}\n`);
