import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { GenerationCache } from '../../src/eval/generate/generation-cache.js';
import { tempFiles } from '../support/compose.js';

const entry = (n: number) => ({
  kind: 'fact' as const,
  key: `fact:${n}`,
  factId: String(n),
  questions: [{ question: `Q${n}?`, expected: `A${n}` }],
});

describe('GenerationCache', () => {
  const files = tempFiles({});
  afterAll(() => files.cleanup());

  it('keeps records across runs, and drops a torn last line (a crash mid-write) without losing the next record', () => {
    const path = files.write('c.jsonl', `${JSON.stringify(entry(1))}\n{"kind":"fact","key":"fac`);
    const cache = new GenerationCache(path);
    expect(cache.size).toBe(1);
    cache.add(entry(2));
    const reread = new GenerationCache(path);
    expect(reread.get('fact:1')).toEqual(entry(1));
    expect(reread.get('fact:2')).toEqual(entry(2));
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('refuses a damaged line in the middle, naming the file and line', () => {
    const path = files.write('bad.jsonl', `not json\n${JSON.stringify(entry(1))}\n`);
    expect(() => new GenerationCache(path)).toThrow(/bad\.jsonl line 1 is not a generation record/);
  });
});
