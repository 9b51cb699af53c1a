/** Failed sign-ins allowed per client within the window before further attempts are refused. @default 10 */
export const SIGN_IN_FAILURES = 10;
/** @default 60 s */
export const SIGN_IN_WINDOW_MS = 60_000;
/** Clients remembered at once; beyond it the longest-quiet one is forgotten, so memory stays bounded. */
const MAX_CLIENTS = 10_000;

export interface SignInThrottle {
  /** Seconds until `client` may try again; 0 when it may now. */
  retryAfter(client: string): number;
  /** Records a failed sign-in (a wrong token, password or sign-in link code). */
  failed(client: string): void;
}

/**
 * A sliding window of failed sign-ins per client (the peer address): the
 * 11th failure within a minute is refused with 429 until the oldest failure
 * leaves the window, so guessing a console token runs at ten tries a minute.
 * The clock is passed in (tests are exact).
 */
export function signInThrottle(now: () => number, limit = SIGN_IN_FAILURES, windowMs = SIGN_IN_WINDOW_MS): SignInThrottle {
  const failures = new Map<string, number[]>();
  const recent = (client: string): number[] => {
    const times = failures.get(client);
    if (!times) return [];
    const since = now() - windowMs;
    while (times.length > 0 && times[0]! <= since) times.shift();
    if (times.length === 0) failures.delete(client);
    return times;
  };
  return {
    retryAfter(client) {
      const times = recent(client);
      return times.length < limit ? 0 : Math.max(1, Math.ceil((times[0]! + windowMs - now()) / 1000));
    },
    failed(client) {
      const times = recent(client);
      failures.delete(client); // re-inserted last: the Map's order is then least recently failed first
      failures.set(client, [...times, now()]);
      if (failures.size > MAX_CLIENTS) failures.delete(failures.keys().next().value!);
    },
  };
}
