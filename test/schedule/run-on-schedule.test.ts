import { afterEach, describe, expect, it, vi } from 'vitest';

import { parseCron } from '../../src/schedule/cron-schedule.js';
import { runOnSchedule } from '../../src/schedule/run-on-schedule.js';

const HOUR = 3_600_000;

/** Runs `expression` from `start` for `hours` of fake time; returns the slots the task was given. */
async function slotsRun(expression: string, options: { start: string; hours: number; timezone?: string; fail?: number[] }) {
  vi.useFakeTimers({ now: new Date(options.start) });
  const slots: string[] = [];
  const logged: string[] = [];
  const handle = runOnSchedule(
    parseCron(expression, { timezone: options.timezone }),
    async (slot) => {
      slots.push(slot.toISOString());
      if (options.fail?.includes(slots.length)) throw new Error('this run fails');
    },
    { name: 'test job', log: (_level, message) => void logged.push(message), now: () => new Date() },
  );
  await vi.advanceTimersByTimeAsync(options.hours * HOUR);
  handle.stop();
  return { slots, logged };
}

describe('runOnSchedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the task at each slot with that slot, and keeps going after a failure', async () => {
    const { slots, logged } = await slotsRun('0 6 * * *', { start: '2026-11-23T05:59:59.500Z', hours: 48, fail: [1] });
    expect(slots).toEqual(['2026-11-23T06:00:00.000Z', '2026-11-24T06:00:00.000Z']);
    expect(logged).toEqual(['test job failed']);
  });

  it('02:30 Europe/Amsterdam runs once on the spring-forward day, at 03:00 local', async () => {
    const { slots } = await slotsRun('30 2 * * *', { start: '2026-03-28T12:00:00Z', hours: 48, timezone: 'Europe/Amsterdam' });
    expect(slots).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  it('02:30 Europe/Amsterdam runs once on the fall-back day, not again in the repeated hour', async () => {
    const { slots } = await slotsRun('30 2 * * *', { start: '2026-10-24T12:00:00Z', hours: 48, timezone: 'Europe/Amsterdam' });
    expect(slots).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('a clock stepped back just after a slot fires does not run that slot again', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T05:00:00Z') });
    let skewMs = 0;
    const slots: string[] = [];
    const handle = runOnSchedule(
      parseCron('0 6 * * *'),
      async (slot) => {
        slots.push(slot.toISOString());
        skewMs = -800; // e.g. NTP steps the clock back while the task runs
      },
      { name: 'test job', now: () => new Date(Date.now() + skewMs) },
    );
    await vi.advanceTimersByTimeAsync(12 * HOUR);
    handle.stop();
    expect(slots).toEqual(['2026-11-23T06:00:00.000Z']);
  });
});
