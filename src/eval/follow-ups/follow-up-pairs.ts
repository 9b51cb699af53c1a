import { z } from 'zod';

import { readJsonl } from '../../kb/read-jsonl.js';

export const FOLLOW_UP_KINDS = ['elliptical', 'pronoun', 'standalone', 'topic_shift'] as const;

const text = z.string().trim().min(1);

/** One line of a follow-ups file: a thread's earlier question, the follow-up, and the standalone question a person wrote for it. */
export const FollowUpPair = z.strictObject({
  previous: text,
  followUp: text,
  standalone: text,
  kind: z.enum(FOLLOW_UP_KINDS),
});
export type FollowUpPair = z.infer<typeof FollowUpPair>;

const EXPECTED = '{"previous","followUp","standalone","kind":"elliptical|pronoun|standalone|topic_shift"}';

/** Reads a follow-ups file; every bad line is named and nothing is returned when any is bad. */
export function readFollowUpPairs(path: string): FollowUpPair[] {
  return readJsonl(path, FollowUpPair, { expected: EXPECTED }).map((row) => row.value);
}
