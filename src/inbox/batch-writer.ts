/**
 * Group commit: puts that arrive while a write is in flight are written
 * together in the next one, so a burst of 200 events costs a few multi-row
 * inserts instead of 200 round trips through one embedded connection. Each put
 * resolves when its own batch is durable; when a batch fails, its puts are
 * written one by one, so each rejects only with its own error.
 */
export interface BatchWriter<T> {
  put(item: T): Promise<boolean>;
}

/** `write` stores a batch and returns, per item, whether it was new (false: stored before). */
export function createBatchWriter<T>(write: (batch: readonly T[]) => Promise<readonly boolean[]>, maxBatch = 500): BatchWriter<T> {
  let queue: { item: T; resolve: (fresh: boolean) => void; reject: (error: unknown) => void }[] = [];
  let writing = false;
  const flush = async (): Promise<void> => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const fresh = await write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(fresh[i] ?? false));
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        // One bad row must not fail its neighbours: each is written on its own, and only what fails is refused.
        else for (const b of batch) await write([b.item]).then((f) => b.resolve(f[0] ?? false), b.reject);
      }
    }
    writing = false;
  };
  return {
    put(item) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        // Wait one turn so that the requests already read join this batch.
        if (!writing) {
          writing = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}
