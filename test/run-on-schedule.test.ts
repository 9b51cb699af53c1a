import { describe, expect, it } from 'vitest';

import { parseCron } from '../src/core/schedule/cron.js';
import { runOnSchedule } from '../src/run-on-schedule.js';

describe('runOnSchedule', () => {
  it('runs the task at the next slot with that slot, and keeps going after a failure', async () => {
    const slots: string[] = [];
    const logged: string[] = [];
    const clock = { now: () => new Date('2026-11-23T05:59:59.500Z') };
    const done = new Promise<void>((resolve) => {
      const handle = runOnSchedule(
        parseCron('0 6 * * *'),
        async (slot) => {
          slots.push(slot.toISOString());
          if (slots.length === 1) throw new Error('first run fails');
          handle.stop();
          resolve();
        },
        { name: 'test job', log: (_level, message) => void logged.push(message), now: clock.now },
      );
    });
    await done;
    expect(slots).toEqual(['2026-11-23T06:00:00.000Z', '2026-11-23T06:00:00.000Z']);
    expect(logged).toEqual(['test job failed']);
  }, 10_000);
});
