import { metrics, type BatchObservableCallback } from '@opentelemetry/api';
import { sql } from 'drizzle-orm';

import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { withinTime } from '../kernel/within-time.js';
import type { Db } from '../store/open-store.js';
import { gapMembers, gaps, interactions, knowledgeBases } from '../store/schema.js';
import { METRIC, SCOPE } from './attributes.js';

/** The window of `candor.gaps.answered_share`: refusals of the last 30 days (as `report gaps` shows by default). */
export const ANSWERED_SHARE_DAYS = 30;

export interface GapCounts {
  readonly kb: string;
  /** Gaps open or asked of experts. */
  readonly open: number;
  /** Refusals (gap members) of the window, and how many of them belong to an answered gap. */
  readonly refusals: number;
  readonly answered: number;
}

/**
 * Per KB, in one query: gaps still open (or asked), and the window's gap
 * members with how many of them an expert has since answered. Members are the
 * refusals `syncGaps` has grouped (run by `report gaps`, the console's gap
 * page and "Ask an expert"), so the share is the same number the gap report shows.
 */
export async function readGapCounts(db: Db, now: Date): Promise<GapCounts[]> {
  const since = new Date(now.getTime() - ANSWERED_SHARE_DAYS * 86_400_000).toISOString();
  const result = (await db.execute(sql`
    select kb.name as kb,
      (select count(*)::int from ${gaps} g where g.kb_id = kb.id and g.state in ('open', 'asked')) as open,
      coalesce(r.refusals, 0)::int as refusals, coalesce(r.answered, 0)::int as answered
    from ${knowledgeBases} kb
    left join lateral (
      select count(*)::int as refusals, (count(*) filter (where g.state = 'answered'))::int as answered
      from ${gapMembers} m join ${gaps} g on g.id = m.gap_id join ${interactions} i on i.id = m.interaction_id
      where g.kb_id = kb.id and i.created_at >= ${since}
    ) r on true
    order by kb.id`)) as unknown as { rows: { kb: string; open: number; refusals: number; answered: number }[] };
  return result.rows.map((r) => ({ kb: r.kb, open: Number(r.open), refusals: Number(r.refusals), answered: Number(r.answered) }));
}

/**
 * Observable gauges `candor.gaps.open` {kb} and `candor.gaps.answered_share`
 * {kb}, read from the store at each collection (a scrape), so every replica
 * reports the same shared numbers (chart them with max, not sum). A failed or
 * slow read observes nothing and logs a warning; it never fails the scrape
 * (the exporter repeats a gauge's last observed value, if it had one). The
 * share is left out for a KB with no refusals in the window.
 */
export function startGapMetrics(deps: {
  db: Db;
  log: Log;
  now?: () => Date;
  /** A scrape waits no longer for the store; past it, the gauges are left out of that scrape. @default 5000 */
  timeoutMs?: number;
}): { stop(): void } {
  const meter = metrics.getMeter(SCOPE.candor);
  const open = meter.createObservableGauge(METRIC.gapsOpen, {
    unit: '{gap}',
    description: 'Knowledge gaps open or asked of experts (not yet answered or out of scope), by kb',
  });
  const share = meter.createObservableGauge(METRIC.gapsAnsweredShare, {
    unit: '1',
    description: `Share of the last ${ANSWERED_SHARE_DAYS} days' refusals (grouped into gaps) whose gap an expert has answered, by kb`,
  });
  let reading: Promise<GapCounts[] | null> | null = null;
  const read = () =>
    (reading ??= withinTime(readGapCounts(deps.db, deps.now?.() ?? new Date()), deps.timeoutMs ?? 5_000, () => {
      throw new Error(`the store did not answer within ${deps.timeoutMs ?? 5_000} ms`);
    })
      .catch((error: unknown) => {
        deps.log('warn', 'metrics: could not read knowledge gaps; candor.gaps.* are left out of this scrape', {
          error: describeError(error),
        });
        return null;
      })
      .finally(() => {
        reading = null;
      }));
  const collect: BatchObservableCallback = async (result) => {
    for (const counts of (await read()) ?? []) {
      result.observe(open, counts.open, { kb: counts.kb });
      if (counts.refusals > 0) result.observe(share, counts.answered / counts.refusals, { kb: counts.kb });
    }
  };
  meter.addBatchObservableCallback(collect, [open, share]);
  return { stop: () => meter.removeBatchObservableCallback(collect, [open, share]) };
}
