/** How finely a chart counts: by the hour, the day or the (ISO, Monday-first) week, in UTC. */
export type Bucket = 'hour' | 'day' | 'week';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The bucket a date range reads best in: up to two days by the hour, up to sixty days by the day, longer by
 * the week — so that a chart has between about a dozen and a hundred bars, never one bar for a whole day.
 */
export function bucketFor(fromMs: number, toMs: number): Bucket {
  const span = toMs - fromMs;
  if (span <= 2 * DAY) return 'hour';
  if (span <= 60 * DAY) return 'day';
  return 'week';
}

/** The start of the bucket `ms` falls in (UTC; weeks start on Monday, as PostgreSQL's date_trunc('week')). */
export function bucketStart(ms: number, bucket: Bucket): number {
  if (bucket === 'hour') return Math.floor(ms / HOUR) * HOUR;
  const day = Math.floor(ms / DAY) * DAY;
  if (bucket === 'day') return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return day - weekday * DAY;
}

/** Every bucket start from the one holding `fromMs` up to (not including) `toMs`, oldest first. */
export function bucketStarts(fromMs: number, toMs: number, bucket: Bucket): number[] {
  const step = bucket === 'hour' ? HOUR : bucket === 'day' ? DAY : 7 * DAY;
  const out: number[] = [];
  for (let t = bucketStart(fromMs, bucket); t < toMs && out.length < 10_000; t += step) out.push(t);
  return out;
}

/** A bucket's axis label: "11-24 08:00" for an hour, "11-24" for a day or the Monday of a week. */
export function bucketLabel(startMs: number, bucket: Bucket): string {
  const iso = new Date(startMs).toISOString();
  return bucket === 'hour' ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(5, 10);
}
