import { bucketFor, type Bucket } from '../../core/report/time-buckets.js';
import type { InteractionFilter, InteractionSource } from '../interaction-list.js';
import type { ReviewQueueFilter } from '../review-queue.js';

/** A query parameter, read as text that can reach SQL (undefined when absent or empty). */
export type Param = (name: string) => string | undefined;

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The overview's windows, in days: the last 24 and 48 hours, then whole days up to a year. */
export const WINDOW_DAYS = [1, 2, 7, 30, 90, 365] as const;
const SOURCES: readonly InteractionSource[] = ['live', 'imported', 'all'];
/** An answer's confidence levels (a refusal has none). */
export const CONFIDENCES = ['high', 'medium', 'low'] as const;

/** A date typed in a form (YYYY-MM-DD), as the UTC midnight it starts at; undefined when it is not one. */
export function parseDay(value: string | undefined): Date | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? undefined : date;
}

export interface TimeWindow {
  readonly from: Date;
  readonly to: Date;
  readonly bucket: Bucket;
  /** The preset chosen (days), or null for a from–to range. */
  readonly days: number | null;
  /** The range as typed (YYYY-MM-DD, `to` inclusive), for the form. */
  readonly fromDay: string;
  readonly toDay: string;
}

/**
 * The overview's window: a from–to range of whole days (UTC, `to` inclusive) when both are given and make
 * sense, else the last N days (`days`, default 30) — the last 24 or 48 hours to the hour, longer windows in
 * whole days. Its bucket follows from its length (hour up to two days, day up to sixty, else week).
 */
export function timeWindow(q: Param, nowMs: number): TimeWindow {
  const from = parseDay(q('from'));
  const toDay = parseDay(q('to'));
  if (from && toDay && toDay.getTime() >= from.getTime() && toDay.getTime() - from.getTime() <= 5 * 366 * DAY) {
    const to = new Date(toDay.getTime() + DAY);
    return { from, to, bucket: bucketFor(from.getTime(), to.getTime()), days: null, ...typed(from, to) };
  }
  const asked = Number(q('days'));
  const days = (WINDOW_DAYS as readonly number[]).includes(asked) ? asked : 30;
  const to = days <= 2 ? Math.ceil((nowMs + 1) / HOUR) * HOUR : Math.floor(nowMs / DAY) * DAY + DAY;
  const start = new Date(to - days * DAY);
  return { from: start, to: new Date(to), bucket: bucketFor(start.getTime(), to), days, ...typed(start, new Date(to)) };
}

function typed(from: Date, to: Date) {
  return { fromDay: from.toISOString().slice(0, 10), toDay: new Date(to.getTime() - 1).toISOString().slice(0, 10) };
}

/** The interaction list's filter from the query: live traffic unless `source` says otherwise. */
export function interactionFilter(q: Param): InteractionFilter {
  const to = parseDay(q('to'));
  return {
    decision: q('decision'),
    confidence: CONFIDENCES.find((c) => c === q('confidence')),
    reason: q('reason'),
    channel: q('channel'),
    kb: q('kb'),
    source: SOURCES.find((s) => s === q('source')) ?? 'live',
    text: q('q')?.trim().slice(0, 200) || undefined,
    from: parseDay(q('from')),
    to: to ? new Date(to.getTime() + DAY) : undefined,
  };
}

/** The filter as query parameters again (for links that keep it: pages, exports). */
export function interactionParams(q: Param): Record<string, string | undefined> {
  const filter = interactionFilter(q);
  return {
    q: filter.text,
    decision: filter.decision,
    confidence: filter.confidence,
    reason: filter.reason,
    channel: filter.channel,
    kb: filter.kb,
    source: filter.source === 'live' ? undefined : filter.source,
    from: filter.from ? q('from') : undefined,
    to: filter.to ? q('to') : undefined,
  };
}

/** The review queue's filter from the query: live samples unless `source` says otherwise. */
export function reviewFilter(q: Param): ReviewQueueFilter {
  return {
    task: q('task'),
    channel: q('channel'),
    kb: q('kb'),
    decision: q('decision'),
    source: SOURCES.find((s) => s === q('source')) ?? 'live',
  };
}

/** The review filter as query parameters (the default source left out). */
export function reviewParams(filter: ReviewQueueFilter): Record<string, string | undefined> {
  return {
    task: filter.task,
    channel: filter.channel,
    kb: filter.kb,
    decision: filter.decision,
    source: filter.source === 'live' ? undefined : filter.source,
  };
}

/** A page number from the query, 1 … 10,000. */
export function pageNumber(q: Param): number {
  return Math.max(1, Math.min(10_000, Number.parseInt(q('page') ?? '1', 10) || 1));
}
