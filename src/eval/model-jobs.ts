import { toFailure } from '../llm/chat-json.js';
import type { CacheEntry, GenerationCache } from './generate/generation-cache.js';

/** How a caller words its progress: each command keeps its own text. */
export interface ModelJobMessages {
  /** Said once when some jobs' results were kept by an earlier run. */
  readonly resumed: (kept: number, total: number) => string;
  /** Said every 25 jobs asked and at the last; `failed`: failures so far. */
  readonly progress: (done: number, todo: number, failed: number) => string;
}

export interface ModelJobsOptions<J> {
  /** Where each result is kept as it arrives; a job whose key it holds is not asked again. */
  readonly cache: GenerationCache;
  readonly keyOf: (job: J) => string;
  /** Asks the model for one job's result, the entry to keep (under `keyOf(job)`). */
  readonly ask: (job: J) => Promise<CacheEntry>;
  readonly messages: ModelJobMessages;
  readonly onProgress?: ((message: string) => void) | undefined;
}

/** A job without a result: the model failed on it (`asked`), or it was skipped once the endpoint kept failing. */
export interface ModelJobFailure<J> {
  readonly job: J;
  readonly error: string;
  readonly asked: boolean;
}

export interface ModelJobsRun<J> {
  /** Jobs whose result an earlier run kept. */
  readonly resumed: number;
  /** Jobs this run had to ask for (failed ones included). */
  readonly todo: number;
  readonly failed: readonly ModelJobFailure<J>[];
}

/** Consecutive unreachable-model failures after which the run stops asking (the endpoint is down). */
const GIVE_UP_AFTER = 3;
const CONCURRENCY = 4;
const NOT_ASKED = 'not asked: the model endpoint kept failing';

/**
 * Asks the model for every job the cache does not hold yet, a few at a time, keeping each result as it arrives so
 * that a failed run resumes. After GIVE_UP_AFTER unreachable-model failures in a row the rest are not asked. Failures
 * are returned, never thrown: the caller decides what a partial run means.
 */
export async function runModelJobs<J>(jobs: readonly J[], options: ModelJobsOptions<J>): Promise<ModelJobsRun<J>> {
  const { cache, keyOf, messages } = options;
  const todo = jobs.filter((job) => !cache.get(keyOf(job)));
  const resumed = jobs.length - todo.length;
  if (resumed > 0) options.onProgress?.(messages.resumed(resumed, jobs.length));
  const failed: ModelJobFailure<J>[] = [];
  let done = 0;
  let unreachableInARow = 0;
  const queue = [...todo];
  const worker = async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      if (unreachableInARow >= GIVE_UP_AFTER) {
        failed.push({ job, error: NOT_ASKED, asked: false });
        continue;
      }
      try {
        cache.add(await options.ask(job));
        unreachableInARow = 0;
      } catch (error) {
        const failure = toFailure(error);
        unreachableInARow = failure.code === 'llm_unavailable' ? unreachableInARow + 1 : 0;
        failed.push({ job, error: failure.message, asked: true });
      }
      done += 1;
      if (done % 25 === 0 || done === todo.length) options.onProgress?.(messages.progress(done, todo.length, failed.length));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, Math.max(1, todo.length)) }, worker));
  return { resumed, todo: todo.length, failed };
}
