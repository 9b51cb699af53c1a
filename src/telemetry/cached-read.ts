import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { withinTime } from '../kernel/within-time.js';

export interface CachedReadOptions {
  readonly log: Log;
  /** What is read, for the warning: "the sources' sync state". */
  readonly what: string;
  /** A scrape waits no longer for the store; past it, the metrics are left out of that scrape. @default 5000 */
  readonly timeoutMs?: number;
  /** Scrapes within this long of a read reuse it (several Prometheus servers, a dashboard refresh). @default 10000 */
  readonly cacheMs?: number;
}

/**
 * A read of the store for metrics: one read serves every scrape for `cacheMs`, concurrent scrapes share one
 * read, and a failed or slow read gives null and logs a warning: it never fails the scrape.
 */
export function cachedRead<T>(read: () => Promise<T>, options: CachedReadOptions): () => Promise<T | null> {
  const cacheMs = options.cacheMs ?? 10_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  let cached: { at: number; value: T } | undefined;
  let reading: Promise<T | null> | null = null;
  return () => {
    if (cached && performance.now() - cached.at < cacheMs) return Promise.resolve(cached.value);
    return (reading ??= withinTime(read(), timeoutMs, () => {
      throw new Error(`the store did not answer within ${timeoutMs} ms`);
    })
      .then((value) => {
        cached = { at: performance.now(), value };
        return value;
      })
      .catch((error: unknown) => {
        options.log('warn', `metrics: could not read ${options.what}; they are left out of this scrape`, { error: describeError(error) });
        return null;
      })
      .finally(() => {
        reading = null;
      }));
  };
}
