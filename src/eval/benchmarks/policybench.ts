import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

import { readJsonl } from '../../kb/read-jsonl.js';
import { factsFromJsonl, type BenchmarkSet } from './benchmark-set.js';

const Line = z.object({ id: z.string(), question: z.string(), factId: z.string() });

/**
 * A PolicyBench domain as shipped in examples/policybench: each question's fact
 * is its answer text; the KB is the answers. Measured by leave-one-out.
 */
export function loadPolicyBench(dir: string, domain: string, options: { sharedSource?: string } = {}): BenchmarkSet {
  const factsPath = join(dir, `${domain}-facts.jsonl`);
  let content = readFileSync(factsPath, 'utf8');
  if (options.sharedSource !== undefined) {
    // The same facts as a normal FAQ export: one source label on every line.
    content = content
      .split('\n')
      .map((line) => (line.trim() ? JSON.stringify({ ...JSON.parse(line), source: options.sharedSource }) : line))
      .join('\n');
  }
  const questions = readJsonl(join(dir, `${domain}-questions.jsonl`), Line, { expected: '{"id","question","factId"}' })
    .map((row) => row.value)
    .map((q) => ({ id: q.id, question: q.question, factIds: [q.factId], answerable: true, reported: true }));
  return { name: domain, facts: factsFromJsonl(content, `${domain}-facts.jsonl`), questions, kind: 'leave-one-out' };
}
