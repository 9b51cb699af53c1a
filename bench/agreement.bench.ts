/**
 * Agreement report over 100k labels: builds a seeded synthetic label set
 * (items × 3 humans + 1 judge, over the three tasks) and times
 * buildAgreementReport with its 1,000-resample bootstrap. Target: under 2 s.
 * Writes bench/results/agreement.json.
 *
 *   npm run bench:agreement
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from '../src/core/agreement/seeded-random.js';
import { buildAgreementReport, type LabelRow } from '../src/core/review/agreement-report.js';
import { REVIEW_TASKS } from '../src/core/review/review-tasks.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = process.env.CANDOR_BENCH_OUT ?? join(ROOT, 'bench', 'results', 'agreement.json');
const TARGET_LABELS = 100_000;
const ANNOTATORS = ['slack:U1', 'slack:U2', 'teams:A3', 'llm:judge@1'];
const random = mulberry32(2026);

// Each (item, task) gets a "true" label; annotators agree with it 80% of the time.
const labels: LabelRow[] = [];
let sampleId = 0;
while (labels.length < TARGET_LABELS) {
  sampleId += 1;
  for (const task of REVIEW_TASKS) {
    const truth = task.outcomes[Math.floor(random() * task.outcomes.length)] as string;
    for (const annotator of ANNOTATORS) {
      const value = random() < 0.8 ? truth : (task.outcomes[Math.floor(random() * task.outcomes.length)] as string);
      labels.push({ sampleId, task: task.id, annotator, value });
    }
  }
}

buildAgreementReport(labels.slice(0, 2000), { seed: 1 }); // warm up the JIT
const runs: number[] = [];
let report;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  report = buildAgreementReport(labels, { seed: 1, iterations: 1000 });
  runs.push(performance.now() - t0);
}
runs.sort((a, b) => a - b);
const result = {
  labels: labels.length,
  items: sampleId,
  annotators: ANNOTATORS.length,
  bootstrapIterations: 1000,
  ms: Math.round((runs[1] as number) * 10) / 10,
  runsMs: runs.map((r) => Math.round(r * 10) / 10),
  targetMs: 2000,
  kappa: report!.tasks.map((t) => ({ task: t.task, judge: t.judges[0]?.cohensKappa })),
};
writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
