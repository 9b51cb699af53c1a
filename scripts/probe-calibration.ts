/**
 * Measures whether probes made from a KB's own facts calibrate its threshold the
 * right way (issue 9): they do not, so `candor eval calibrate` has no probe mode.
 *
 *   npx tsx scripts/probe-calibration.ts [--squad DIR]
 *
 * A probe is a fact's rarest half of content words (two to eight) in its own
 * order; asked with the full KB it should find its fact, with the fact left out
 * it should be refused. The threshold recommended from 200 probes per KB is then
 * held against the KB's real questions, beside the default and the threshold the
 * real questions themselves recommend.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { GATE_MODEL } from '../src/ask/gate-model.js';
import { settingsSchema, toConfig } from '../src/config.js';
import { mulberry32 } from '../src/core/agreement/seeded-random.js';
import { recommendThreshold, sweepThresholds, type CalibrationPoint } from '../src/core/calibrate/threshold-sweep.js';
import { tokenize } from '../src/core/text/tokenize.js';
import { indexOf, type BenchmarkSet } from '../src/eval/benchmarks/benchmark-set.js';
import { loadPolicyBench } from '../src/eval/benchmarks/policybench.js';
import { loadSquad2 } from '../src/eval/benchmarks/squad2.js';
import { observe, pointsFromQuestions } from '../src/eval/calibrate/calibration-points.js';
import type { KnowledgeIndex } from '../src/kb/knowledge-index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { squad: { type: 'string', default: join(ROOT, 'examples', 'squad2') } } });
const config = toConfig(settingsSchema.parse({}));
const options = { config, model: GATE_MODEL };

function probeOf(text: string, idf: (term: string) => number): string {
  const words = new Map<string, { word: string; at: number }>();
  tokenize(text).forEach((t, at) => {
    if (!words.has(t.term) && !/^\d+$/.test(t.term)) words.set(t.term, { word: t.word, at });
  });
  const keep = Math.min(8, Math.max(2, Math.ceil(words.size / 2)));
  return [...words]
    .sort(([a], [b]) => idf(b) - idf(a))
    .slice(0, keep)
    .map(([, w]) => w)
    .sort((a, b) => a.at - b.at)
    .map((w) => w.word)
    .join(' ');
}

function probePoints(index: KnowledgeIndex, count: number, seed: number): CalibrationPoint[] {
  const facts = index.allFacts();
  const rng = mulberry32(seed);
  const order = facts.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const idf = (t: string) => index.vocabulary().idf(t);
  return order.slice(0, count).flatMap((i) => {
    const fact = facts[i]!;
    const probe = probeOf(fact.text, idf);
    const id = fact.externalId ?? String(fact.id);
    const full = observe(index, probe, new Set(), options);
    const left = observe(index, probe, new Set([fact.id]), options);
    return [
      { score: full.score, kind: 'answerable' as const, right: full.evidence.some((e) => e.factId === id), ruleRefused: full.ruleRefused },
      { score: left.score, kind: 'refusable' as const, right: false, ruleRefused: left.ruleRefused },
    ];
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const sets: BenchmarkSet[] = [
  loadPolicyBench(join(ROOT, 'examples/policybench'), 'cpf'),
  loadPolicyBench(join(ROOT, 'examples/policybench'), 'ica'),
  loadSquad2(values.squad),
];
console.log('| KB | default 0.50 on real questions | probes recommend → on real questions | real questions recommend |');
console.log('|---|---|---|---|');
for (const set of sets) {
  const index = indexOf(set);
  const questions = set.questions
    .filter((q) => q.reported)
    .map((q) => ({
      id: q.id,
      question: q.question,
      factIds: [...q.factIds],
      ...(q.answers ? { answers: [...q.answers] } : {}),
      answerable: q.answerable,
    }));
  const real = sweepThresholds(pointsFromQuestions(index, questions, options));
  const at = (t: number) => real.find((p) => Math.abs(p.threshold - t) < 1e-9)!;
  const fromProbes = recommendThreshold(sweepThresholds(probePoints(index, 200, 1)), 0.75);
  const fromReal = recommendThreshold(real, 0.75);
  const cell = (t: number) => `${pct(at(t).answeredRight)} / ${pct(at(t).abstained)}`;
  console.log(
    `| ${set.name} | ${cell(0.5)} | ${fromProbes.threshold.toFixed(2)} → ${cell(fromProbes.threshold)} | ${fromReal.threshold.toFixed(2)} → ${cell(fromReal.threshold)} |`,
  );
}
console.log(
  '\nEach cell: answered citing a right fact / abstained where refusing is right (left-out twins and unanswerable questions), target abstention 75%.',
);
