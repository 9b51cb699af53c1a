/**
 * One gate for a Web API method's calls: a 429 closes it for the Retry-After
 * the response gave, and no call passes until that time has come by the
 * wall clock (a timer that fires early waits again), so every Retry-After is
 * honoured however many replies wait on it.
 */
export interface RateGate {
  /** Resolves once the gate is open; with how long this call waited (ms). */
  pass(): Promise<number>;
  /** Closes the gate for `ms` from now (a later opening time never moves earlier). */
  closeFor(ms: number): void;
}

export function createRateGate(now: () => number = Date.now): RateGate {
  let openAt = 0;
  return {
    async pass() {
      const started = now();
      for (let left = openAt - now(); left > 0; left = openAt - now()) {
        await new Promise((resolve) => setTimeout(resolve, left));
      }
      return now() - started;
    },
    closeFor(ms) {
      openAt = Math.max(openAt, now() + ms);
    },
  };
}
