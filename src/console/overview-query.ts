import { and, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';

import type { Bucket } from '../core/report/time-buckets.js';
import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';
import { kbIs, rows } from './sql-parts.js';

/** One bar of the overview's charts: a bucket's start (ISO, UTC) and what happened in it. */
export interface BucketRow {
  readonly start: string;
  readonly answered: number;
  readonly abstained: number;
  readonly p50: number | null;
  readonly p95: number | null;
}

export interface Overview {
  readonly bucket: Bucket;
  /** Buckets with asks only, oldest first (the page fills the empty ones). */
  readonly buckets: readonly BucketRow[];
  readonly reasons: readonly { readonly reason: string; readonly n: number }[];
  readonly channels: readonly { readonly channel: string; readonly n: number }[];
  readonly totals: {
    readonly asks: number;
    readonly answered: number;
    readonly abstained: number;
    readonly p50: number | null;
    readonly p95: number | null;
  };
}

export interface OverviewWindow {
  /** Inclusive. */
  readonly from: Date;
  /** Exclusive. */
  readonly to: Date;
  readonly bucket: Bucket;
  /** One knowledge base's asks only (its name); all KBs when absent. */
  readonly kb?: string | undefined;
}

const UNITS: Readonly<Record<Bucket, string>> = { hour: "'hour'", day: "'day'", week: "'week'" };

/**
 * Asks in a window, counted per bucket (hour, day or week, UTC), with latency percentiles, the top refusal
 * reasons and the channels; in SQL both PGlite and PostgreSQL run (counts cast to int, percentile_cont).
 * Evaluation asks and imported replies (no decision) are left out.
 */
export async function overview(db: Db, window: OverviewWindow): Promise<Overview> {
  const where = and(
    ne(interactions.channel, 'eval'),
    inArray(interactions.decision, ['answer', 'abstain']),
    gte(interactions.createdAt, window.from),
    lt(interactions.createdAt, window.to),
    window.kb ? kbIs(window.kb) : undefined,
  ) as SQL;
  // One of three literals, never text from a request.
  const unit = sql.raw(UNITS[window.bucket]);
  const buckets = await rows<BucketRow>(
    db,
    sql`select to_char(date_trunc(${unit}, ${interactions.createdAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"') as start,
          (count(*) filter (where ${interactions.decision} = 'answer'))::int as answered,
          (count(*) filter (where ${interactions.decision} = 'abstain'))::int as abstained,
          percentile_cont(0.5) within group (order by ${interactions.latencyMs}) as p50,
          percentile_cont(0.95) within group (order by ${interactions.latencyMs}) as p95
        from ${interactions} where ${where} group by 1 order by 1`,
  );
  const [totals] = await rows<Overview['totals']>(
    db,
    sql`select count(*)::int as asks, (count(*) filter (where ${interactions.decision} = 'answer'))::int as answered,
          (count(*) filter (where ${interactions.decision} = 'abstain'))::int as abstained,
          percentile_cont(0.5) within group (order by ${interactions.latencyMs}) as p50,
          percentile_cont(0.95) within group (order by ${interactions.latencyMs}) as p95
        from ${interactions} where ${where}`,
  );
  const reasons = await rows<{ reason: string; n: number }>(
    db,
    sql`select coalesce(${interactions.reason}, 'unknown') as reason, count(*)::int as n from ${interactions}
        where ${where} and ${interactions.decision} = 'abstain' group by 1 order by 2 desc, 1 limit 10`,
  );
  const channels = await rows<{ channel: string; n: number }>(
    db,
    sql`select ${interactions.channel} as channel, count(*)::int as n from ${interactions} where ${where} group by 1 order by 2 desc, 1`,
  );
  const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));
  return {
    bucket: window.bucket,
    buckets: buckets.map((b) => ({
      start: b.start,
      answered: Number(b.answered),
      abstained: Number(b.abstained),
      p50: num(b.p50),
      p95: num(b.p95),
    })),
    reasons: reasons.map((r) => ({ reason: r.reason, n: Number(r.n) })),
    channels: channels.map((c) => ({ channel: c.channel, n: Number(c.n) })),
    totals: {
      asks: Number(totals?.asks ?? 0),
      answered: Number(totals?.answered ?? 0),
      abstained: Number(totals?.abstained ?? 0),
      p50: num(totals?.p50),
      p95: num(totals?.p95),
    },
  };
}
