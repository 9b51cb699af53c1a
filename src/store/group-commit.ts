/**
 * Group commit: items submitted while a write is in flight are written together by the next one, so concurrent
 * callers share one statement (and, on PGlite, one fsync) instead of queueing a round trip each. An idle writer
 * waits one turn of the event loop, so that the requests already read join its first write: on PGlite, whose
 * queries run on this thread, nothing else could join while a write runs.
 */
export interface GroupCommit<T, R> {
  /**
   * Resolves with this item's own result once the batch holding it is stored; rejects with that batch's error
   * (the batches before and after it are not affected).
   */
  submit(item: T): Promise<R>;
}

export interface GroupCommitOptions {
  /** Most items in one write; more waiting are written by the writes after it, in order. @default 32 */
  readonly maxBatch?: number;
}

/**
 * `write` stores a batch in one go and returns one result per item, in the batch's order. Batches are written
 * one at a time, in the order their items were submitted.
 */
export function createGroupCommit<T, R>(
  write: (batch: readonly T[]) => Promise<readonly R[]>,
  options: GroupCommitOptions = {},
): GroupCommit<T, R> {
  const maxBatch = options.maxBatch ?? 32;
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a whole number ≥ 1, not ${maxBatch}`);
  let waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  let writing = false;

  const drain = async (): Promise<void> => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        const results = await write(batch.map((w) => w.item));
        if (results.length !== batch.length) throw new Error(`a group write returned ${results.length} results for ${batch.length} items`);
        batch.forEach((w, i) => w.resolve(results[i] as R));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    writing = false;
  };

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (writing) return;
        writing = true;
        setImmediate(() => void drain());
      });
    },
  };
}
