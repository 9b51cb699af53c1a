/**
 * Standard five-field cron expressions (minute hour day-of-month month
 * day-of-week), evaluated in UTC: `*`, lists `1,15`, ranges `1-5`, steps
 * `*\/15` and `10-50/20`, names for months and weekdays, and the shorthands
 * @hourly @daily @weekly @monthly. Day-of-month and day-of-week combine as in
 * Vixie cron: when both are restricted, either may match.
 */
export interface CronSchedule {
  readonly expression: string;
  /** The first matching minute strictly after `after`. */
  next(after: Date): Date;
  /** The latest matching minute at or before `at` (the slot a scheduled run belongs to). */
  previous(at: Date): Date;
}

const SHORTHANDS: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Field {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  readonly namesFrom?: number;
}
const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: 'day of week', min: 0, max: 7, names: DAYS, namesFrom: 0 },
];

/** Parses an expression; throws an Error that says which field is wrong and why. */
export function parseCron(expression: string): CronSchedule {
  const source = SHORTHANDS[expression.trim().toLowerCase()] ?? expression.trim();
  const parts = source.split(/\s+/);
  if (parts.length !== 5)
    throw new Error(`"${expression}" is not a cron expression: expected 5 fields (minute hour day month weekday), got ${parts.length}`);
  const [minutes, hours, days, months, weekdays] = parts.map((part, i) => parseField(part, FIELDS[i] as Field)) as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (weekdays.has(7)) weekdays.add(0);
  const dayRestricted = parts[2] !== '*';
  const weekdayRestricted = parts[4] !== '*';

  const matches = (t: Date): boolean => {
    if (!minutes.has(t.getUTCMinutes()) || !hours.has(t.getUTCHours()) || !months.has(t.getUTCMonth() + 1)) return false;
    const dom = days.has(t.getUTCDate());
    const dow = weekdays.has(t.getUTCDay());
    if (dayRestricted && weekdayRestricted) return dom || dow;
    return dom && dow;
  };
  const search = (from: Date, step: 1 | -1): Date => {
    const t = new Date(from);
    t.setUTCSeconds(0, 0);
    // Five years of minutes bounds the search; an impossible date (30 Feb) throws instead of looping.
    for (let i = 0; i < 5 * 366 * 24 * 60; i++) {
      if (matches(t)) return t;
      t.setUTCMinutes(t.getUTCMinutes() + step);
    }
    throw new Error(`"${expression}" never matches`);
  };
  return {
    expression,
    next: (after) => search(new Date(after.getTime() + 60_000), 1),
    previous: (at) => search(at, -1),
  };
}

function parseField(text: string, field: Field): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const [range = '', stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`cron ${field.name}: bad step in "${item}"`);
    let lo: number;
    let hi: number;
    if (range === '*') {
      lo = field.min;
      hi = field.name === 'day of week' ? 6 : field.max;
    } else {
      const [a = '', b] = range.split('-');
      lo = value(a, field);
      hi = b === undefined ? (stepText === undefined ? lo : field.max) : value(b, field);
    }
    if (lo > hi) throw new Error(`cron ${field.name}: range "${range}" runs backwards`);
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return values;
}

function value(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + (field.namesFrom ?? 0) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < field.min || n > field.max) {
    throw new Error(`cron ${field.name}: "${text}" is not a value from ${field.min} to ${field.max}`);
  }
  return n;
}
