import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import type { ExpertDesk } from './expert-types.js';

/**
 * Sends what the experts desk left waiting — questions not yet posted (a
 * channel was down) and askers not yet told (an answer given from the CLI, or
 * while this server was stopped) — at start and every `everyMs`. The timer
 * does not keep the process alive; runs never overlap.
 */
export function startExpertDelivery(desk: ExpertDesk, everyMs: number, log: Log): { stop(): void; runNow(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= desk
      .deliver()
      .then(({ posted, told }) => {
        if (posted + told > 0) log('info', 'experts: delivered what was waiting', { posted, told });
      })
      .catch((error: unknown) => log('warn', 'experts: delivery failed; trying again later', { error: describeError(error) }))
      .finally(() => {
        running = null;
      });
    return running;
  };
  void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    runNow: run,
  };
}
