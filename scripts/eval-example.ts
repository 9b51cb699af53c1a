/**
 * Asks the example KB's questions (examples/questions/example-kb.jsonl) through the product's own ask
 * path — default settings, extractive mode, a throw-away in-memory store — and reports right answers,
 * wrong answers, false refusals and right refusals:
 *
 *   npm run eval:example                      # the figures, then the wrong answers and false refusals
 *   npm run -s eval:example -- --json         # one JSON object on stdout (-s keeps npm's banner off it)
 *   npm run eval:example -- --questions FILE  # another questions file on the same KB
 *   npm run eval:example -- --kb DIR --questions FILE --fresh none   # another KB (examples/handbook)
 *
 * The fresh set (examples/questions/fresh-example-kb.jsonl, written from the documents alone and never used
 * to fit) is asked of the same KB and reported apart; `--fresh none` skips it.
 *
 * Progress goes to stderr. The exit code says whether the run worked, never how good the figures are.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { runExampleQuestions } from '../src/app/run-example-questions.js';
import { loadConfig } from '../src/config.js';
import { readExampleQuestions } from '../src/eval/example-questions/example-questions.js';
import { formatExampleReport } from '../src/eval/example-questions/format-example-report.js';
import { CandorError } from '../src/kernel/errors.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      questions: { type: 'string', default: join(ROOT, 'examples', 'questions', 'example-kb.jsonl') },
      kb: { type: 'string', default: join(ROOT, 'examples', 'kb') },
      fresh: { type: 'string', default: join(ROOT, 'examples', 'questions', 'fresh-example-kb.jsonl') },
      json: { type: 'boolean', default: false },
    },
  });
  const questions = readExampleQuestions(values.questions);
  const fresh =
    values.fresh === 'none' || !existsSync(values.fresh)
      ? undefined
      : { name: basename(values.fresh), questions: readExampleQuestions(values.fresh) };
  // Default settings on purpose (not this shell's environment): the figures are the embedded default's.
  const config = loadConfig({ CANDOR_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
  const report = await runExampleQuestions({
    config,
    kbPaths: [values.kb],
    questions,
    ...(fresh ? { fresh } : {}),
    onProgress: (message) => process.stderr.write(`eval:example: ${message}\n`),
  });
  process.stdout.write(`${values.json ? JSON.stringify(report) : formatExampleReport(report)}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`eval:example: ${error instanceof CandorError ? error.message : (error as Error).stack}\n`);
    process.exitCode = 1;
  },
);
