import { describe, expect, it } from 'vitest';

import { GenerationCache, type CacheEntry } from '../../src/eval/generate/generation-cache.js';
import { runModelJobs } from '../../src/eval/model-jobs.js';

const entry = (n: number): CacheEntry => ({ kind: 'category', key: `job:${n}`, category: String(n), questions: [`Q${n}?`] });
const messages = {
  resumed: (kept: number, total: number) => `kept ${kept} of ${total}`,
  progress: (done: number, todo: number, failed: number) => `done ${done}/${todo}, ${failed} failed`,
};

describe('runModelJobs', () => {
  it('asks only for what the cache lacks, keeps each result, and says so in the caller’s words', async () => {
    const cache = new GenerationCache(null);
    cache.add(entry(1));
    const asked: number[] = [];
    const said: string[] = [];
    const run = await runModelJobs([1, 2, 3], {
      cache,
      keyOf: (n) => `job:${n}`,
      ask: async (n) => {
        asked.push(n);
        return entry(n);
      },
      messages,
      onProgress: (m) => said.push(m),
    });
    expect(run).toEqual({ resumed: 1, todo: 2, failed: [] });
    expect(asked.sort()).toEqual([2, 3]);
    expect(cache.get('job:3')).toEqual(entry(3));
    expect(said).toEqual(['kept 1 of 3', 'done 2/2, 0 failed']);
  });

  it('stops asking once the endpoint kept failing, and reports every job left without a result', async () => {
    const jobs = Array.from({ length: 40 }, (_, i) => i);
    let calls = 0;
    const run = await runModelJobs(jobs, {
      cache: new GenerationCache(null),
      keyOf: (n) => `job:${n}`,
      ask: async () => {
        calls += 1;
        throw new Error('the model endpoint could not be reached');
      },
      messages,
    });
    expect(run.failed).toHaveLength(40);
    expect(calls).toBeLessThan(40);
    expect(run.failed.filter((f) => f.asked)).toHaveLength(calls);
    expect(run.failed.find((f) => f.asked)?.error).toBe('the model endpoint could not be reached');
    expect(run.failed.find((f) => !f.asked)?.error).toBe('not asked: the model endpoint kept failing');
  });
});
