import { sql, type SQL } from 'drizzle-orm';

import { REVIEW_TASKS } from '../core/review/review-tasks.js';
import type { Db } from '../store/open-store.js';
import { interactions, knowledgeBases, labelEvents, reviewSamples } from '../store/schema.js';
import { rows } from './sql-parts.js';

export interface ReviewQueueFilter {
  /** Only samples this task applies to; "labelled" then means labelled for it. Any task when absent. */
  readonly task?: string | undefined;
  readonly channel?: string | undefined;
  readonly kb?: string | undefined;
  /** 'answer' | 'abstain' | 'unknown' (imported replies, whose decision is what their labels say). */
  readonly decision?: string | undefined;
  /** @default 'live' */
  readonly source?: 'live' | 'imported' | 'all' | undefined;
}

export interface QueueRow {
  readonly sampleId: number;
  readonly interactionId: number;
  readonly stratum: string;
  readonly postedTo: string | null;
  readonly sampledAt: Date;
  readonly channel: string;
  readonly kb: string | null;
  readonly question: string;
  readonly decision: string | null;
  readonly reason: string | null;
  /** Whether a person (not a judge) holds a label on it (for the filtered task, else for any). */
  readonly labelled: boolean;
}

export interface ReviewQueue {
  readonly rows: readonly QueueRow[];
  readonly more: boolean;
  /** Samples matching the filter. */
  readonly total: number;
  /** Of them, those no person has labelled yet: the backlog. */
  readonly backlog: number;
  /** Samples and backlog per source, whatever the source filter (for the source tabs). */
  readonly bySource: {
    readonly live: { readonly total: number; readonly backlog: number };
    readonly imported: { readonly total: number; readonly backlog: number };
  };
}

export const QUEUE_PAGE_SIZE = 50;
const IMPORTED = 'import';

/**
 * The review queue: samples no person has labelled first, then the rest, newest first within each, with the
 * backlog counted. A judge's label (`llm:…`, `rule:…`) does not take a sample off the queue.
 */
export async function reviewQueue(db: Db, filter: ReviewQueueFilter, page: number): Promise<ReviewQueue> {
  const task = REVIEW_TASKS.find((t) => t.id === filter.task);
  const labelled = sql`exists (
      select 1 from (
        select distinct on (le.task, le.annotator) le.action from ${labelEvents} le
        where le.sample_id = ${reviewSamples.id}
          and le.annotator not like 'llm:%' and le.annotator not like 'rule:%'
          ${task ? sql`and le.task = ${task.id}` : sql``}
        order by le.task, le.annotator, le.id desc
      ) latest where latest.action = 'set')`;
  const decision =
    filter.decision === 'unknown'
      ? sql`${interactions.decision} is null`
      : filter.decision
        ? sql`${interactions.decision} = ${filter.decision}`
        : sql`true`;
  const common: SQL[] = [
    task?.appliesTo === 'answered' ? sql`${interactions.decision} is distinct from 'abstain'` : sql`true`,
    filter.channel ? sql`${interactions.channel} = ${filter.channel}` : sql`true`,
    filter.kb ? sql`${knowledgeBases.name} = ${filter.kb}` : sql`true`,
    decision,
  ];
  const source = filter.source ?? 'live';
  const bySource =
    source === 'live'
      ? sql`${interactions.channel} <> ${IMPORTED}`
      : source === 'imported'
        ? sql`${interactions.channel} = ${IMPORTED}`
        : sql`true`;
  const from = sql`${reviewSamples}
      join ${interactions} on ${interactions.id} = ${reviewSamples.interactionId}
      left join ${knowledgeBases} on ${knowledgeBases.id} = ${interactions.kbId}`;
  const where = sql.join(common, sql` and `);
  const [counts] = await rows<Record<string, number>>(
    db,
    sql`select
          (count(*) filter (where ${interactions.channel} <> ${IMPORTED}))::int as live,
          (count(*) filter (where ${interactions.channel} <> ${IMPORTED} and not ${labelled}))::int as live_backlog,
          (count(*) filter (where ${interactions.channel} = ${IMPORTED}))::int as imported,
          (count(*) filter (where ${interactions.channel} = ${IMPORTED} and not ${labelled}))::int as imported_backlog
        from ${from} where ${where}`,
  );
  const found = await rows<Omit<QueueRow, 'sampledAt'> & { sampledAt: string | Date }>(
    db,
    sql`select ${reviewSamples.id} as "sampleId", ${interactions.id} as "interactionId", ${reviewSamples.stratum} as stratum,
          ${reviewSamples.postedTo} as "postedTo", ${reviewSamples.createdAt} as "sampledAt", ${interactions.channel} as channel,
          ${knowledgeBases.name} as kb, ${interactions.question} as question, ${interactions.decision} as decision,
          ${interactions.reason} as reason, ${labelled} as labelled
        from ${from} where ${where} and ${bySource}
        order by labelled, ${reviewSamples.id} desc
        limit ${QUEUE_PAGE_SIZE + 1} offset ${(page - 1) * QUEUE_PAGE_SIZE}`,
  );
  const n = (key: string) => Number(counts?.[key] ?? 0);
  const live = { total: n('live'), backlog: n('live_backlog') };
  const imported = { total: n('imported'), backlog: n('imported_backlog') };
  const chosen =
    source === 'live'
      ? live
      : source === 'imported'
        ? imported
        : { total: live.total + imported.total, backlog: live.backlog + imported.backlog };
  return {
    rows: found.slice(0, QUEUE_PAGE_SIZE).map((r) => ({
      ...r,
      sampleId: Number(r.sampleId),
      interactionId: Number(r.interactionId),
      sampledAt: new Date(r.sampledAt),
      labelled: r.labelled === true || (r.labelled as unknown) === 't',
    })),
    more: found.length > QUEUE_PAGE_SIZE,
    total: chosen.total,
    backlog: chosen.backlog,
    bySource: { live, imported },
  };
}
