import { Cron } from 'croner';

/**
 * A five-field cron expression (minute hour day-of-month month day-of-week)
 * evaluated by croner in one IANA time zone. Day-of-month and day-of-week
 * combine as in Vixie cron: when both are restricted, either may match.
 * Across daylight-saving changes a fixed time (`30 2 * * *`) runs once a day:
 * a time skipped in spring runs at the end of the gap, a time repeated in
 * autumn runs at its first occurrence; interval schedules (`*\/30 * * * *`)
 * run on real instants, so they keep running through a repeated hour.
 */
export interface CronSchedule {
  readonly expression: string;
  readonly timezone: string;
  /** The first slot strictly after `after`. */
  next(after: Date): Date;
  /** The latest slot at or before `at` (the slot a scheduled run belongs to; `previous(slot)` is `slot`). */
  previous(at: Date): Date;
}

const FIELDS = [
  { name: 'minute', allowed: '0-59' },
  { name: 'hour', allowed: '0-23' },
  { name: 'day of month', allowed: '1-31' },
  { name: 'month', allowed: '1-12 or jan-dec' },
  { name: 'day of week', allowed: '0-7 or sun-sat' },
] as const;

/**
 * Parses `expression` for `timezone` (@default 'UTC'); throws an Error that says
 * which field is wrong and why, or that the expression never matches.
 */
export function parseCron(expression: string, { timezone = 'UTC' }: { timezone?: string } = {}): CronSchedule {
  const source = expression.trim();
  const options = { timezone, mode: '5-part', domAndDow: false, paused: true } as const;
  if (!source.startsWith('@')) {
    const parts = source.split(/\s+/);
    if (parts.length !== FIELDS.length)
      throw new Error(`"${expression}" is not a cron expression: expected 5 fields (minute hour day month weekday), got ${parts.length}`);
  }
  let cron: Cron;
  try {
    cron = new Cron(source, options);
  } catch (error) {
    throw new Error(explain(expression, source, (error as Error).message));
  }
  const never = () => new Error(`"${expression}" never matches`);
  if (cron.nextRun(new Date()) === null) throw never();
  return {
    expression,
    timezone,
    next(after) {
      const next = cron.nextRun(after);
      if (!next) throw never();
      return next;
    },
    previous(at) {
      // previousRuns returns runs strictly before its reference; one millisecond on includes `at` itself.
      const [previous] = cron.previousRuns(1, new Date(at.getTime() + 1));
      if (!previous) throw never();
      return previous;
    },
  };
}

/** Croner names fields by position and some values off by one: name the field and what it takes instead. */
function explain(expression: string, source: string, reason: string): string {
  const detail = reason.replace(/^CronPattern:\s*/, '');
  if (source.startsWith('@'))
    return `"${expression}" is not a cron expression: expected 5 fields or one of @hourly @daily @weekly @monthly @yearly`;
  const parts = source.split(/\s+/);
  if (parts.length !== FIELDS.length) return `"${expression}" is not a cron expression: ${detail}`;
  const index = parts.findIndex((part, i) => !accepts(parts.map((p, j) => (j === i ? part : '*')).join(' ')));
  const field = FIELDS[index];
  if (!field) return `"${expression}" is not a cron expression: ${detail}`;
  const why = /^Invalid value for|illegal characters/.test(detail) ? '' : `; ${detail}`;
  return `cron ${field.name}: "${parts[index]}" is not valid (${field.allowed}, lists 1,15, ranges 1-5, steps */15 or 10-50/20${why})`;
}

function accepts(pattern: string): boolean {
  try {
    new Cron(pattern, { mode: '5-part', paused: true });
    return true;
  } catch {
    return false;
  }
}
