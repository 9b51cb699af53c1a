/**
 * Writes PolicyBench's published model answers as `candor eval grounding` input: real GPT-4o answers,
 * with the facts the model was shown, labelled supported or not by construction.
 *
 *   npm run data:policybench-grounding [-- --out FILE] [--responses FILE] [--questions FILE]
 *   npm run candor -- eval grounding --responses .data/policybench/grounding-responses.jsonl
 *
 * The output (about 3.4 MB) goes to the git-ignored .data/ by default.
 *
 * Construction (src/eval/grounding/policybench-grounding.ts):
 * - Input: ../shared/data/policybench/results/responses_with_labels_cpf_ica.jsonl (1,729 leave-one-out
 *   answers: the question's own fact, its answer text, was removed from the knowledge base) and
 *   ../shared/data/policybench/questions/policybench_cpf_ica.jsonl (the facts: `answer` by `identifier`).
 * - Kept: retrieval_type BASIC_RAG and HYDE_RAG only (DIRECT shows the model no context), and only the
 *   answers the published GPT-4.1 judge labelled `abstention: "no"` (895 rows).
 * - Each becomes `supported: false`: its answering fact was removed, so no answer that does not
 *   decline is supported by its context. context = the `answer` texts of `context_question_ids`, in
 *   that order (the numbering the model cited by); cited = [citation] when `citation` is an integer
 *   (0-based into the context), absent when it is "no citation".
 * - Control: the 111 of those the judge labelled `factuality: "tier_1"` (fully factual) once more, id
 *   `<response_id>+fact`, with the removed fact (the `answer` of `question_id`) appended as the LAST
 *   context fact (index 5 of 6) and cited = the original citation (if any) followed by that index →
 *   `supported: true`.
 * - Extra fields kept: domain (CPF/ICA, from the question file), retrieval_type, system_prompt,
 *   question_id, factuality.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { policyBenchGrounding } from '../src/eval/grounding/policybench-grounding.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHARED = join(ROOT, '..', 'shared', 'data', 'policybench');
/** About 3.4 MB (the context texts repeat across rows): generated, git-ignored, not committed. */
export const DEFAULT_OUT = '.data/policybench/grounding-responses.jsonl';

/** Runs the converter; returns the exit code (2 for a usage error). */
export function makePolicyBenchGrounding(
  argv: readonly string[],
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        responses: { type: 'string', default: join(SHARED, 'results', 'responses_with_labels_cpf_ica.jsonl') },
        questions: { type: 'string', default: join(SHARED, 'questions', 'policybench_cpf_ica.jsonl') },
        out: { type: 'string', default: join(ROOT, DEFAULT_OUT) },
      },
    }));
  } catch (error) {
    log(`${(error as Error).message}\nusage: npm run data:policybench-grounding [-- --out FILE] [--responses FILE] [--questions FILE]`);
    return 2;
  }
  const { lines, counts } = policyBenchGrounding(values.responses, values.questions);
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  log(
    `wrote ${lines.length} rows to ${values.out}: ${counts.unsupported} answers without their fact (supported: false), ` +
      `${counts.supported} controls with it restored (supported: true)`,
  );
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = makePolicyBenchGrounding(process.argv.slice(2));
