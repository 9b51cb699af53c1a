/**
 * `work`'s outcome when it settles within `ms`; otherwise what `late` returns, or throws (a fallback, or a
 * timeout error). The timer is cleared either way and never keeps the process alive.
 */
export function withinTime<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
