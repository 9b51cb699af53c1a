import { z } from 'zod';

import { readJsonl } from '../../kb/read-jsonl.js';
import { CandorError } from '../../kernel/errors.js';

/** The don't-know categories of a RAG chat evaluator (DESIGN.md, "Don't-know-ness"). */
export const DONT_KNOW_CATEGORIES = ['uncitable-related', 'uncitable-unrelated', 'unknowable', 'nonsensical'] as const;

const id = z.string().regex(/^[\w-]+$/, 'letters, digits, "-" or "_"');
const question = z.string().trim().min(1);

const AnswerableQuestion = z.strictObject({
  id,
  question,
  answerable: z.literal(true),
  /** Every one must appear in the first line of a right reply (see `containsExpected`). */
  expected: z.array(z.string().trim().min(1)).min(1),
  /** Where in the KB the answer is. */
  note: z.string().min(1),
});

const UnanswerableQuestion = z.strictObject({
  id,
  question,
  answerable: z.literal(false),
  /** Why the KB does not hold the answer. */
  why: z.string().min(1),
  category: z.enum(DONT_KNOW_CATEGORIES),
});

export const ExampleQuestionLine = z.discriminatedUnion('answerable', [AnswerableQuestion, UnanswerableQuestion]);
export type ExampleQuestion = z.infer<typeof ExampleQuestionLine>;

const EXPECTED_LINE =
  '{"id","question","answerable":true,"expected":["…"],"note"} or {"id","question","answerable":false,"why","category":"uncitable-related|uncitable-unrelated|unknowable|nonsensical"}';

/** Reads a questions file, naming every bad line and every repeated id: an evaluation must be exact. */
export function readExampleQuestions(path: string): ExampleQuestion[] {
  const rows = readJsonl(path, ExampleQuestionLine, { expected: EXPECTED_LINE });
  const seen = new Map<string, number>();
  const repeated: string[] = [];
  for (const row of rows) {
    const first = seen.get(row.value.id);
    if (first === undefined) seen.set(row.value.id, row.line);
    else repeated.push(`line ${row.line}: id "${row.value.id}" is already on line ${first}`);
  }
  if (repeated.length > 0) throw new CandorError('file_malformed', `${path} repeats ids:\n  ${repeated.join('\n  ')}`);
  return rows.map((row) => row.value);
}
