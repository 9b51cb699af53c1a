import { z } from 'zod';

import { readJsonl } from '../../kb/read-jsonl.js';
import { CandorError } from '../../kernel/errors.js';

/**
 * One line of `candor eval grounding --responses FILE`; `retrieval_type` and `system_prompt`, when given, name the
 * configuration the outcomes are grouped by; other fields (domain, model, …) are allowed and ignored.
 */
export const GROUNDING_FORMAT = '{"id","question","response","context":[fact texts],"cited":[0-based indices]?,"supported"?}';

const Row = z.object({
  id: z.union([z.string().trim().min(1).max(200), z.number().int()]).transform(String),
  question: z.string().trim().min(1, 'is empty').max(20_000),
  response: z.string().max(200_000),
  /** The facts the model was shown, in the order it numbered them. */
  context: z.array(z.string().max(200_000)).max(1000),
  /**
   * The facts the answer cites, 0-based into `context`; absent: it cites none. An index past the
   * context is kept: it is what the model wrote, and the grounding check flags it.
   */
  cited: z.array(z.number().int().min(0, 'must be 0-based indices (0 or more)')).max(100).optional(),
  /** The reference: is the response supported by its context? Absent or null: not known. */
  supported: z.boolean().nullish(),
  /** The model configuration that wrote it (PolicyBench's fields), for the outcomes per configuration. */
  retrieval_type: z.string().trim().max(200).optional(),
  system_prompt: z.string().trim().max(200).optional(),
});

export type GroundingRow = z.infer<typeof Row>;

/** Reads and validates the responses file: every bad line is named, with its number; ids must be unique. */
export function readGroundingRows(path: string): { line: number; value: GroundingRow }[] {
  const rows = readJsonl(path, Row, { expected: GROUNDING_FORMAT });
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const { line, value } of rows) {
    const first = seen.get(value.id);
    if (first !== undefined) problems.push(`line ${line}: id "${value.id}" already used on line ${first}`);
    else seen.set(value.id, line);
  }
  if (problems.length > 0)
    throw new CandorError('file_malformed', `${path}: ${problems.length} bad lines:\n  ${problems.slice(0, 10).join('\n  ')}`);
  return rows;
}
