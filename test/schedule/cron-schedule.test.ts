import { describe, expect, it } from 'vitest';

import { parseCron, type CronSchedule } from '../../src/schedule/cron-schedule.js';

const at = (iso: string) => new Date(iso);
const AMSTERDAM = 'Europe/Amsterdam';
const localDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: AMSTERDAM, dateStyle: 'short' }).format(d);

/** Every slot from `from` (exclusive) up to `to` (exclusive), as ISO strings. */
function slots(schedule: CronSchedule, from: string, to: string): string[] {
  const found: string[] = [];
  for (let t = schedule.next(at(from)); t < at(to); t = schedule.next(t)) found.push(t.toISOString());
  return found;
}

describe('parseCron in UTC (the default)', () => {
  it('@daily runs at midnight UTC; previous() gives the slot a moment belongs to', () => {
    const daily = parseCron('@daily');
    expect(daily.timezone).toBe('UTC');
    expect(daily.next(at('2026-11-23T04:15:30Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(daily.previous(at('2026-11-23T04:15:30Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(daily.previous(at('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(daily.previous(at('2026-11-22T23:59:59.999Z')).toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });

  it('steps, ranges, lists, names and the shorthands', () => {
    expect(parseCron('*/15 * * * *').next(at('2026-11-23T04:15:00Z')).toISOString()).toBe('2026-11-23T04:30:00.000Z');
    expect(parseCron('10-50/20 * * * *').next(at('2026-11-23T04:31:00Z')).toISOString()).toBe('2026-11-23T04:50:00.000Z');
    expect(parseCron('30 9 * * mon-fri').next(at('2026-11-21T10:00:00Z')).toISOString()).toBe('2026-11-23T09:30:00.000Z'); // Sat → Mon
    expect(parseCron('0 6,18 * * *').next(at('2026-11-23T07:00:00Z')).toISOString()).toBe('2026-11-23T18:00:00.000Z');
    expect(parseCron('0 0 1 jan *').next(at('2026-11-23T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parseCron('0 12 * * 7').next(at('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-29T12:00:00.000Z'); // 7 = Sunday
    expect(parseCron('@hourly').next(at('2026-11-23T04:15:00Z')).toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(parseCron('@weekly').next(at('2026-11-23T04:15:00Z')).toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(parseCron('@monthly').next(at('2026-11-23T04:15:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('day of month and day of week restricted together match either (Vixie cron); one restricted alone is just that', () => {
    expect(slots(parseCron('0 0 13 * fri'), '2026-11-01T00:00:00Z', '2026-11-21T00:00:00Z')).toEqual([
      '2026-11-06T00:00:00.000Z', // a Friday before the 13th
      '2026-11-13T00:00:00.000Z',
      '2026-11-20T00:00:00.000Z',
    ]);
    expect(slots(parseCron('0 0 13 * *'), '2026-11-01T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual([
      '2026-11-13T00:00:00.000Z',
      '2026-12-13T00:00:00.000Z',
    ]);
  });

  it('says which field is wrong and what it takes', () => {
    expect(() => parseCron('0 0 * *')).toThrow(
      '"0 0 * *" is not a cron expression: expected 5 fields (minute hour day month weekday), got 4',
    );
    expect(() => parseCron('0 0 0 * * *')).toThrow(/expected 5 fields .* got 6/);
    expect(() => parseCron('61 * * * *')).toThrow(/^cron minute: "61" is not valid \(0-59, /);
    expect(() => parseCron('0 0 0 * *')).toThrow(/^cron day of month: "0" is not valid \(1-31, /);
    expect(() => parseCron('0 0 1 13 *')).toThrow(/^cron month: "13" is not valid \(1-12 or jan-dec, /);
    expect(() => parseCron('* * * * funday')).toThrow(/^cron day of week: "funday" is not valid/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/^cron minute: "\*\/0" is not valid .*stepping/);
    expect(() => parseCron('@fortnightly')).toThrow(/one of @hourly @daily @weekly @monthly/);
    expect(() => parseCron('0 0 30 feb *')).toThrow('"0 0 30 feb *" never matches');
  });
});

describe('parseCron in a time zone', () => {
  it('reads the fields as local time: 06:00 in Amsterdam is 05:00 UTC in winter and 04:00 UTC in summer', () => {
    const six = parseCron('0 6 * * *', { timezone: AMSTERDAM });
    expect(six.next(at('2026-01-10T00:00:00Z')).toISOString()).toBe('2026-01-10T05:00:00.000Z');
    expect(six.next(at('2026-07-10T00:00:00Z')).toISOString()).toBe('2026-07-10T04:00:00.000Z');
    expect(six.previous(at('2026-07-10T04:30:00Z')).toISOString()).toBe('2026-07-10T04:00:00.000Z');
    expect(parseCron('@daily', { timezone: AMSTERDAM }).next(at('2026-01-10T12:00:00Z')).toISOString()).toBe('2026-01-10T23:00:00.000Z');
  });

  it('02:30 daily runs once on the spring-forward day (02:00 → 03:00), at the end of the gap', () => {
    const daily = parseCron('30 2 * * *', { timezone: AMSTERDAM });
    const found = slots(daily, '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z');
    expect(found).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST: 02:30 does not exist
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
    ]);
    expect(found.filter((s) => localDay(at(s)) === '2026-03-29')).toHaveLength(1);
    for (const slot of found) expect(daily.previous(at(slot)).toISOString()).toBe(slot);
    expect(daily.previous(at('2026-03-29T00:59:59.999Z')).toISOString()).toBe('2026-03-28T01:30:00.000Z');
    expect(daily.previous(at('2026-03-29T12:00:00Z')).toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('02:30 daily runs once on the fall-back day (03:00 → 02:00), at the first 02:30, not the repeated one', () => {
    const daily = parseCron('30 2 * * *', { timezone: AMSTERDAM });
    const found = slots(daily, '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z');
    expect(found).toEqual([
      '2026-10-24T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T00:30:00.000Z', // the first 02:30 (CEST)
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ]);
    expect(found.filter((s) => localDay(at(s)) === '2026-10-25')).toHaveLength(1);
    for (const slot of found) expect(daily.previous(at(slot)).toISOString()).toBe(slot);
    // The repeated 02:30 (CET) belongs to the slot already run: a replica started in the repeated hour agrees.
    expect(daily.previous(at('2026-10-25T01:30:00Z')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(daily.next(at('2026-10-25T01:15:00Z')).toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });

  it('an interval schedule runs on real instants through both changes, and previous() agrees with next()', () => {
    const halfHourly = parseCron('*/30 * * * *', { timezone: AMSTERDAM });
    const fall = slots(halfHourly, '2026-10-24T21:59:00Z', '2026-10-25T22:59:00Z'); // local 25 October, 25 hours
    expect(fall).toHaveLength(50);
    const spring = slots(halfHourly, '2026-03-28T22:59:00Z', '2026-03-29T21:59:00Z'); // local 29 March, 23 hours
    expect(spring).toHaveLength(46);
    for (const list of [fall, spring]) {
      for (const [i, slot] of list.entries()) {
        expect(halfHourly.previous(at(slot)).toISOString()).toBe(slot);
        if (i > 0) expect(at(slot).getTime() - at(list[i - 1]!).getTime()).toBe(30 * 60_000);
      }
    }
  });
});
