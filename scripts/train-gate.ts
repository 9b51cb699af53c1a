/**
 * Trains the answerability model on the public benchmarks and writes its
 * weights, its model card and the validation figures:
 *
 *   npm run train:gate                        # PolicyBench (examples/policybench) and SQuAD 2.0 (examples/squad2)
 *   npm run train:gate -- --squad DIR         # SQuAD 2.0 elsewhere
 *   npm run train:gate -- --check             # retrain and fail if the committed weights differ (reproducibility)
 *
 * Same data, same weights: sampling is seeded and the fit is deterministic.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { settingsSchema, toConfig } from '../src/config.js';
import { FEATURE_NAMES } from '../src/core/gate/answerability-features.js';
import type { AnswerabilityModel } from '../src/core/gate/answerability-model.js';
import { indexOf, type BenchmarkSet } from '../src/eval/benchmarks/benchmark-set.js';
import { loadPolicyBench } from '../src/eval/benchmarks/policybench.js';
import { loadSquad2 } from '../src/eval/benchmarks/squad2.js';
import { confidentBand } from '../src/eval/gate-training/confident-band.js';
import { foreignQuestions, gateRows, type GateRow } from '../src/eval/gate-training/gate-rows.js';
import { figureTable, highTable, renderModelCard } from '../src/eval/gate-training/model-card.js';
import { trainAnswerability, type TrainOptions } from '../src/eval/gate-training/train-answerability.js';
import { validate } from '../src/eval/gate-training/validate-gate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODEL_PATH = join(ROOT, 'src/core/gate/model/answerability.json');
const CARD_PATH = join(ROOT, 'src/core/gate/model/MODEL_CARD.md');
const REPORT_PATH = join(ROOT, 'bench/results/gate-quality.json');
/** Bump when the features or the training recipe change. */
const VERSION = 1;
const SEED = 20_261_124;
const OUT_OF_SCOPE_PER_SET = 100;
const TRAIN: TrainOptions = { id: 'answerability-lr', version: VERSION, l2: 0.01, outOfScopeWeight: 0.5, threshold: 0.5 };

const { values } = parseArgs({
  options: {
    squad: { type: 'string', default: join(ROOT, 'examples', 'squad2') },
    policy: { type: 'string', default: join(ROOT, 'examples', 'policybench') },
    check: { type: 'boolean', default: false },
  },
});

function progress(message: string): void {
  process.stderr.write(`[train-gate] ${message}\n`);
}

const config = toConfig(settingsSchema.parse({}));
const neutral: AnswerabilityModel = {
  id: 'neutral',
  version: 0,
  features: [...FEATURE_NAMES],
  center: FEATURE_NAMES.map(() => 0),
  scale: FEATURE_NAMES.map(() => 1),
  weights: FEATURE_NAMES.map(() => 0),
  intercept: 0,
  threshold: 0.5,
};

if (!existsSync(join(values.squad, 'questions.jsonl'))) {
  process.stderr.write(`SQuAD 2.0 data not found in ${values.squad} (paragraphs.jsonl, questions.jsonl); pass --squad DIR.\n`);
  process.exit(2);
}
const sets: BenchmarkSet[] = [loadPolicyBench(values.policy, 'cpf'), loadPolicyBench(values.policy, 'ica'), loadSquad2(values.squad)];
const rows: GateRow[] = [];
for (const set of sets) {
  const started = performance.now();
  const index = indexOf(set);
  rows.push(
    ...gateRows(set, index, {
      config,
      model: neutral,
      foreign: foreignQuestions(sets, set.name, OUT_OF_SCOPE_PER_SET, SEED),
      onProgress: (done, total) => progress(`${set.name}: ${done}/${total} questions`),
    }),
  );
  progress(`${set.name}: ${set.facts.length} facts, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const fitted = trainAnswerability(rows, TRAIN);
const model = { ...fitted, confident: confidentBand(rows, fitted) };
progress(`confident band: answers scoring ${model.confident} or more carry no caveat`);
progress('validating (leave one set out, BM25 baseline)');
const validation = validate(rows, model, TRAIN);
console.log(figureTable(validation));
console.log(highTable(validation));

const modelJson = `${JSON.stringify(model, null, 2)}\n`;
if (values.check) {
  const committed = existsSync(MODEL_PATH) ? readFileSync(MODEL_PATH, 'utf8') : '';
  if (committed !== modelJson) {
    process.stderr.write(`the retrained model differs from ${relative(ROOT, MODEL_PATH)}\n`);
    process.exit(1);
  }
  progress('the retrained model is identical to the committed one');
} else {
  const sources = [
    `PolicyBench CPF (${sets[0]?.facts.length} facts, ${sets[0]?.questions.length} questions) and ICA (${sets[1]?.facts.length} facts, ${sets[1]?.questions.length} questions), GovTech Singapore, CC BY 4.0 (examples/policybench)`,
    `SQuAD 2.0 train, first 10 articles (${sets[2]?.facts.length} sentence facts, ${sets[2]?.questions.length} questions), Rajpurkar et al. 2018, CC BY-SA 4.0 (examples/squad2)`,
  ];
  writeFileSync(MODEL_PATH, modelJson);
  writeFileSync(CARD_PATH, renderModelCard({ model, rows, validation, sources, command: 'npm run train:gate' }));
  writeFileSync(REPORT_PATH, `${JSON.stringify({ model: `${model.id}@${model.version}`, seed: SEED, validation }, null, 2)}\n`);
  progress(`wrote ${relative(ROOT, MODEL_PATH)}, ${relative(ROOT, CARD_PATH)}, ${relative(ROOT, REPORT_PATH)}`);
}
