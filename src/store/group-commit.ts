/**
 * Group commit: items submitted while a write is in flight are written together by the next one, so concurrent
 * callers share one statement (and, on PGlite, one fsync) instead of queueing a round trip each. An idle writer
 * waits one turn of the event loop, so that the requests already read join its first write: on PGlite, whose
 * queries run on this thread, nothing else could join while a write runs. The durable inbox and the interaction
 * recorder both write through it.
 */
export interface GroupCommit<T, R> {
  /**
   * Resolves with this item's own result once it is stored; rejects only with an error of a write that held
   * this item alone (see createGroupCommit for why a failed batch is written again item by item).
   */
  submit(item: T): Promise<R>;
}

export interface GroupCommitOptions {
  /** Most items in one write; more waiting are written by the writes after it, in order. @default 32 */
  readonly maxBatch?: number;
}

interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * `write` stores a batch in one statement and returns one result per item, in the batch's order. Batches are
 * written one at a time, in the order their items were submitted.
 *
 * When a batch fails, each of its items is written again on its own, and each caller gets the outcome of its own
 * write. This is the failure behaviour for a bot that must lose nothing: one row the database refuses (a value
 * out of range, a payload it cannot hold) would otherwise fail every neighbour that happened to share its
 * statement — a burst's inbox puts answered 503 (and, redelivered together, failing together again until the
 * platform gives up), or a batch of interaction rows lost. Retrying is safe because a batch is one INSERT: when
 * it fails, none of its rows is stored (and rows with an event id are idempotent besides: only a reply lost after
 * the commit could store a row without one twice). When the database itself is down, every item fails again on
 * its own, so every caller still gets the error.
 */
export function createGroupCommit<T, R>(
  write: (batch: readonly T[]) => Promise<readonly R[]>,
  options: GroupCommitOptions = {},
): GroupCommit<T, R> {
  const maxBatch = options.maxBatch ?? 32;
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a whole number ≥ 1, not ${maxBatch}`);
  let waiting: Waiting<T, R>[] = [];
  let writing = false;

  /** Writes `batch` in one go and settles each of its callers; throws (settling none) when the write fails. */
  const writeBatch = async (batch: readonly Waiting<T, R>[]): Promise<void> => {
    const results = await write(batch.map((w) => w.item));
    if (results.length !== batch.length) throw new Error(`a group write returned ${results.length} results for ${batch.length} items`);
    batch.forEach((w, i) => w.resolve(results[i] as R));
  };

  const drain = async (): Promise<void> => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        await writeBatch(batch);
      } catch (error) {
        if (batch.length === 1) (batch[0] as Waiting<T, R>).reject(error);
        else for (const w of batch) await writeBatch([w]).catch(w.reject);
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
