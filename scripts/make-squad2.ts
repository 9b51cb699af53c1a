/**
 * Writes the SQuAD 2.0 benchmark as Candor files, as the data's README
 * describes it: a knowledge base of one fact per sentence (the article and
 * paragraph as its source) and the questions of the two articles that have
 * unanswerable ones, in the `eval loo` format.
 *
 *   npx tsx scripts/make-squad2.ts --out DIR [--squad examples/squad2]
 *   candor ingest DIR/squad2-facts.jsonl --kb squad2
 *   candor eval loo --kb squad2 --questions DIR/squad2-questions.jsonl --json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { loadSquad2, squadFactLines } from '../src/eval/benchmarks/squad2.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { out: { type: 'string' }, squad: { type: 'string', default: join(ROOT, 'examples', 'squad2') } },
});
if (!values.out) {
  process.stderr.write('usage: npx tsx scripts/make-squad2.ts --out DIR [--squad DIR]\n');
  process.exit(2);
}
mkdirSync(values.out, { recursive: true });
const facts = squadFactLines(values.squad);
writeFileSync(join(values.out, 'squad2-facts.jsonl'), `${facts.join('\n')}\n`);
const questions = loadSquad2(values.squad)
  .questions.filter((q) => q.reported)
  .map((q) =>
    q.answerable
      ? { id: q.id, question: q.question, factIds: q.factIds, answers: q.answers }
      : { id: q.id, question: q.question, answerable: false },
  );
writeFileSync(join(values.out, 'squad2-questions.jsonl'), `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
process.stderr.write(`wrote ${facts.length} facts and ${questions.length} questions to ${values.out}\n`);
