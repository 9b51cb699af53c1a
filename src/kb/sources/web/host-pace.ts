import { setTimeout as sleep } from 'node:timers/promises';

/** Requests to one host kept at least a minimum time apart, however many callers ask at once. */
export interface HostPace {
  /** Waits for the host's next turn and takes it; false when `signal` ended the wait. */
  turn(host: string, signal: AbortSignal): Promise<boolean>;
}

/**
 * A pace of `intervalMs` between the starts of requests to each host. Turns are handed out in the order asked
 * for, each `intervalMs` after the one before, so concurrent callers queue rather than burst.
 */
export function hostPace(intervalMs: number, now: () => number = Date.now): HostPace {
  const nextTurn = new Map<string, number>();
  return {
    async turn(host, signal) {
      if (signal.aborted) return false;
      const at = Math.max(now(), nextTurn.get(host) ?? 0);
      nextTurn.set(host, at + intervalMs);
      const wait = at - now();
      if (wait <= 0) return true;
      try {
        await sleep(wait, undefined, { signal });
        return true;
      } catch {
        return false;
      }
    },
  };
}
