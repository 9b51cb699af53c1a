import { describe, expect, it } from 'vitest';

import { bucketFor, bucketLabel, bucketStart, bucketStarts } from '../../../src/core/report/time-buckets.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('time buckets: chosen by the length of the range', () => {
  it('hours up to two days, days up to sixty, weeks beyond', () => {
    const from = at('2026-11-01T00:00:00Z');
    expect(bucketFor(from, from + DAY)).toBe('hour');
    expect(bucketFor(from, from + 2 * DAY)).toBe('hour');
    expect(bucketFor(from, from + 2 * DAY + 1)).toBe('day');
    expect(bucketFor(from, from + 60 * DAY)).toBe('day');
    expect(bucketFor(from, from + 60 * DAY + 1)).toBe('week');
  });

  it('starts hours, days and Monday-first weeks in UTC, as date_trunc does', () => {
    const t = at('2026-11-26T10:42:17Z'); // a Thursday
    expect(new Date(bucketStart(t, 'hour')).toISOString()).toBe('2026-11-26T10:00:00.000Z');
    expect(new Date(bucketStart(t, 'day')).toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(new Date(bucketStart(t, 'week')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(new Date(bucketStart(at('2026-11-29T23:59:00Z'), 'week')).toISOString()).toBe('2026-11-23T00:00:00.000Z'); // Sunday
  });

  it('lists every bucket of a range, oldest first, with labels people read', () => {
    const hours = bucketStarts(at('2026-11-26T10:00:00Z'), at('2026-11-27T10:00:00Z'), 'hour');
    expect(hours).toHaveLength(24);
    expect(bucketLabel(hours[0]!, 'hour')).toBe('11-26 10:00');
    expect(bucketLabel(hours[23]!, 'hour')).toBe('11-27 09:00');
    const weeks = bucketStarts(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'week');
    expect(weeks).toHaveLength(53);
    expect(bucketLabel(weeks[0]!, 'week')).toBe('12-29'); // the Monday before New Year's Day
  });
});
