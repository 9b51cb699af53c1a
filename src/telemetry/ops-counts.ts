import { sql } from 'drizzle-orm';

import { REVIEW_TASKS } from '../core/review/review-tasks.js';
import type { Db } from '../store/open-store.js';
import { inbox, interactions, knowledgeBases, labelEvents, reviewSamples } from '../store/schema.js';

/** One chat channel's inbox: questions not yet answered, the age of the oldest, and those given up for good. */
export interface InboxCounts {
  readonly channel: string;
  /** Rows pending or claimed (being answered, or waiting to be tried again). */
  readonly pending: number;
  /** Seconds since the oldest of them arrived; null when none is pending. */
  readonly oldestAgeSeconds: number | null;
  /** Rows with status 'failed': every try failed, the reply never reached the person. */
  readonly failed: number;
}

/** Live samples still waiting for a person's label on a task (judges' and imported labels do not count). */
export interface BacklogCount {
  readonly task: string;
  readonly kb: string;
  readonly unlabelled: number;
}

/** Where a label came from: a person (chat, console, terminal), a judge (`llm:`, `rule:`), or an import (`import:`). */
export type LabelSource = 'human' | 'judge' | 'import';

export interface LabelCount {
  readonly task: string;
  readonly source: LabelSource;
  /** Label events that set a label (a changed mind counts again; removals do not count). */
  readonly given: number;
}

export interface OpsCounts {
  readonly inbox: readonly InboxCounts[];
  readonly backlog: readonly BacklogCount[];
  readonly labels: readonly LabelCount[];
}

type Rows<T> = { rows: T[] };

/**
 * The operational counts behind candor.inbox.*, candor.deliveries.failed, candor.review.backlog and
 * candor.labels, in three queries. The inbox ones read only open and failed rows (the `inbox_open`
 * index), never the history of answered questions.
 */
export async function readOpsCounts(db: Db, now: Date): Promise<OpsCounts> {
  const [open, backlog, labels] = await Promise.all([
    db.execute(sql`
      select channel,
        (count(*) filter (where status in ('pending', 'claimed')))::int as pending,
        extract(epoch from (${now.toISOString()}::timestamptz - min(received_at) filter (where status in ('pending', 'claimed'))))::float8
          as oldest,
        (count(*) filter (where status = 'failed'))::int as failed
      from ${inbox} where status in ('pending', 'claimed', 'failed')
      group by channel order by channel`) as unknown as Promise<
      Rows<{ channel: string; pending: number; oldest: number | null; failed: number }>
    >,
    db.execute(sql`
      with latest as (
        select distinct on (sample_id, task, annotator) sample_id, task, action
        from ${labelEvents}
        where annotator not like 'llm:%' and annotator not like 'rule:%' and annotator not like 'import:%'
        order by sample_id, task, annotator, id desc
      )
      select t.task, coalesce(kb.name, 'unknown') as kb, count(*)::int as unlabelled
      from ${reviewSamples} s
      join ${interactions} i on i.id = s.interaction_id
      left join ${knowledgeBases} kb on kb.id = i.kb_id
      cross join (values ${sql.join(
        REVIEW_TASKS.map((task) => sql`(${task.id}::text, ${task.appliesTo === 'all'}::boolean)`),
        sql`, `,
      )}) as t(task, every_decision)
      where i.channel not in ('import', 'eval')
        and (t.every_decision or i.decision is distinct from 'abstain')
        and not exists (select 1 from latest l where l.sample_id = s.id and l.task = t.task and l.action = 'set')
      group by t.task, kb.name order by t.task, kb`) as unknown as Promise<Rows<{ task: string; kb: string; unlabelled: number }>>,
    db.execute(sql`
      select task, case when annotator like 'llm:%' or annotator like 'rule:%' then 'judge'
          when annotator like 'import:%' then 'import' else 'human' end as source,
        count(*)::int as given
      from ${labelEvents} where action = 'set'
      group by 1, 2 order by 1, 2`) as unknown as Promise<Rows<{ task: string; source: LabelSource; given: number }>>,
  ]);
  return {
    inbox: open.rows.map((r) => ({
      channel: r.channel,
      pending: Number(r.pending),
      oldestAgeSeconds: r.oldest === null ? null : Math.max(0, Number(r.oldest)),
      failed: Number(r.failed),
    })),
    backlog: backlog.rows.map((r) => ({ task: r.task, kb: r.kb, unlabelled: Number(r.unlabelled) })),
    labels: labels.rows.map((r) => ({ task: r.task, source: r.source, given: Number(r.given) })),
  };
}
