/**
 * What a person reads, on every question set we have, in one run: the example KB's shipped questions and its fresh
 * set (written from the documents alone, never used to fit), and the second example KB (the TTS handbook, a new
 * organisation's documents) with its questions. Default settings, extractive mode, throw-away stores. Writes the
 * figures to bench/results/example-quality.json and prints a table:
 *
 *   npm run eval:quality
 *
 * Progress goes to stderr. The exit code says whether the run worked, never how good the figures are.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runExampleQuestions } from '../src/app/run-example-questions.js';
import { loadConfig } from '../src/config.js';
import { readExampleQuestions } from '../src/eval/example-questions/example-questions.js';
import type { ExampleTotals } from '../src/eval/example-questions/example-totals.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'bench', 'results', 'example-quality.json');
const q = (...parts: string[]) => readExampleQuestions(join(ROOT, 'examples', ...parts));

/** The headline figures of one set (see ExampleTotals for the rest). */
function headline(name: string, t: ExampleTotals) {
  return {
    set: name,
    questions: t.questions,
    answerable: t.answerable,
    unanswerable: t.unanswerable,
    /** Answerable questions whose reply holds the answer in its first line. */
    answerFirstLine: t.rightAnswers.rate,
    /** Unanswerable questions refused. */
    unanswerableRefused: t.rightRefusals.rate,
    highPrecision: t.confidence?.high.precision ?? null,
    highAnswers: t.confidence?.high.count ?? 0,
    rightMarkedHigh: t.confidence?.rightMarkedHigh.rate ?? null,
    wrongCaveated: t.confidence?.wrongCaveated ?? 0,
    wrongUncaveated: t.confidence?.wrongUncaveated ?? 0,
  };
}

async function main(): Promise<void> {
  const progress = (message: string) => process.stderr.write(`eval:quality: ${message}\n`);
  const config = () => loadConfig({ CANDOR_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
  const example = await runExampleQuestions({
    config: config(),
    kbPaths: [join(ROOT, 'examples', 'kb')],
    questions: q('questions', 'example-kb.jsonl'),
    fresh: { name: 'fresh-example-kb.jsonl', questions: q('questions', 'fresh-example-kb.jsonl') },
    onProgress: progress,
  });
  const handbook = await runExampleQuestions({
    config: config(),
    kbPaths: [join(ROOT, 'examples', 'handbook', 'kb')],
    questions: q('handbook', 'questions.jsonl'),
    onProgress: progress,
  });
  const sets = [
    headline('example KB, shipped questions (tuned on)', example.totals),
    ...(example.fresh ? [headline('example KB, fresh questions (never fitted)', example.fresh.totals)] : []),
    headline('TTS handbook, a new organisation (never fitted)', handbook.totals),
  ];
  writeFileSync(OUT, `${JSON.stringify({ mode: example.mode, sets }, null, 2)}\n`);
  const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
  process.stdout.write(
    [
      '| question set | answer in first line | unanswerable refused | precision of high | right answers marked high |',
      '|---|---|---|---|---|',
      ...sets.map(
        (s) =>
          `| ${s.set} (${s.answerable} + ${s.unanswerable}) | ${pct(s.answerFirstLine)} | ${pct(s.unanswerableRefused)} | ${pct(s.highPrecision)} of ${s.highAnswers} | ${pct(s.rightMarkedHigh)} |`,
      ),
      '',
    ].join('\n'),
  );
  progress(`wrote ${OUT}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:quality: ${(error as Error).stack}\n`);
  process.exitCode = 1;
});
