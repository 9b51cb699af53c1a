/**
 * Runs chat answers behind the acknowledgement, a few at a time. A burst of
 * events is acknowledged at once (each ack is cheap); the answers follow in
 * arrival order, each started from a fresh turn of the event loop so that
 * waiting requests are read and acknowledged between them.
 */
export interface AnswerQueue {
  /** Queues a job; the promise settles when the job has run. */
  push(job: () => Promise<unknown>): Promise<void>;
  /** Jobs queued or running. */
  readonly pending: number;
  /** Resolves when every job queued so far has run, or after `graceMs`. */
  drain(graceMs: number): Promise<void>;
}

export function createAnswerQueue(concurrency: number): AnswerQueue {
  const waiting: (() => void)[] = [];
  const all = new Set<Promise<void>>();
  let running = 0;
  const next = () => {
    while (running < concurrency && waiting.length > 0) {
      running += 1;
      const start = waiting.shift() as () => void;
      setImmediate(start);
    }
  };
  return {
    push(job) {
      const done = new Promise<void>((resolve) => {
        waiting.push(() => {
          job()
            .catch(() => undefined) // jobs log their own failures
            .finally(() => {
              running -= 1;
              resolve();
              next();
            });
        });
      });
      all.add(done);
      void done.finally(() => all.delete(done));
      next();
      return done;
    },
    get pending() {
      return all.size;
    },
    async drain(graceMs) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...all]).then(() => undefined), grace]);
    },
  };
}
