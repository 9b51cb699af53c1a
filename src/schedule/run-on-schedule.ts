import type { Log } from '../kernel/log.js';
import type { CronSchedule } from './cron-schedule.js';

/**
 * Runs `task` at every slot of a cron schedule until stopped, each slot once
 * (also when a timer fires a little early, or on a repeated hour in autumn);
 * a failing run is logged and the next slot still comes. Timers do not keep
 * the process alive.
 */
export function runOnSchedule(
  schedule: CronSchedule,
  task: (slot: Date) => Promise<void>,
  options: { log?: Log; name: string; /** @default () => new Date() */ now?: () => Date },
): { stop(): void } {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastSlot: Date | undefined;
  const arm = () => {
    if (stopped) return;
    const current = now();
    // From the slot just run when the clock has not passed it yet, so that slot is not run twice.
    const next = schedule.next(lastSlot && lastSlot > current ? lastSlot : current);
    // setTimeout caps at ~24.8 days; for rarer schedules the timer re-arms on the way.
    const wait = Math.min(Math.max(1000, next.getTime() - current.getTime()), 2 ** 31 - 1);
    timer = setTimeout(() => void fire(next), wait);
    timer.unref();
  };
  const fire = async (slot: Date) => {
    if (now().getTime() + 1000 < slot.getTime()) return arm(); // woke early (long wait split): wait on
    lastSlot = slot;
    try {
      await task(slot);
    } catch (error) {
      options.log?.('error', `${options.name} failed`, { error: (error as Error).message });
    } finally {
      arm();
    }
  };
  arm();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
