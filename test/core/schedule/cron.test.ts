import { describe, expect, it } from 'vitest';

import { parseCron } from '../../../src/core/schedule/cron.js';

const at = (iso: string) => new Date(iso);

describe('parseCron', () => {
  it('@daily runs at midnight UTC; previous() gives the slot a moment belongs to', () => {
    const daily = parseCron('@daily');
    expect(daily.next(at('2026-11-23T04:15:30Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(daily.previous(at('2026-11-23T04:15:30Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(daily.previous(at('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('steps, ranges, lists and names', () => {
    expect(parseCron('*/15 * * * *').next(at('2026-11-23T04:15:00Z')).toISOString()).toBe('2026-11-23T04:30:00.000Z');
    expect(parseCron('30 9 * * mon-fri').next(at('2026-11-21T10:00:00Z')).toISOString()).toBe('2026-11-23T09:30:00.000Z'); // Sat → Mon
    expect(parseCron('0 6,18 * * *').next(at('2026-11-23T07:00:00Z')).toISOString()).toBe('2026-11-23T18:00:00.000Z');
    expect(parseCron('0 0 1 jan *').next(at('2026-11-23T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parseCron('0 12 * * 7').next(at('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-29T12:00:00.000Z'); // 7 = Sunday
  });

  it('day of month and day of week restricted together match either (Vixie cron)', () => {
    const s = parseCron('0 0 13 * fri');
    expect(s.next(at('2026-11-01T00:00:00Z')).toISOString()).toBe('2026-11-06T00:00:00.000Z'); // a Friday before the 13th
  });

  it('says which field is wrong', () => {
    expect(() => parseCron('0 0 * *')).toThrow(/expected 5 fields/);
    expect(() => parseCron('61 * * * *')).toThrow(/minute: "61" is not a value from 0 to 59/);
    expect(() => parseCron('* * * * funday')).toThrow(/day of week/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/bad step/);
    expect(() => parseCron('0 0 30 feb *').next(at('2026-01-01T00:00:00Z'))).toThrow(/never matches/);
  });
});
