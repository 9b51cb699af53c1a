import type { CronSchedule } from './core/schedule/cron.js';
import type { Log } from './log.js';

/**
 * Runs `task` at every slot of a cron schedule until stopped; a failing run
 * is logged and the next slot still comes. Timers do not keep the process alive.
 */
export function runOnSchedule(
  schedule: CronSchedule,
  task: (slot: Date) => Promise<void>,
  options: { log?: Log; name: string; now?: () => Date },
): { stop(): void } {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    const next = schedule.next(now());
    // setTimeout caps at ~24.8 days; for rarer schedules the timer re-arms on the way.
    const wait = Math.min(Math.max(1000, next.getTime() - now().getTime()), 2 ** 31 - 1);
    timer = setTimeout(() => void fire(next), wait);
    timer.unref();
  };
  const fire = async (slot: Date) => {
    if (now().getTime() + 1000 < slot.getTime()) return arm(); // woke early (long wait split): wait on
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
