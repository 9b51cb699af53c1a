import { and, desc, eq, gte, inArray, ne, sql, type SQL } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { agreementReports, interactions, knowledgeBases, reviewSamples } from '../store/schema.js';

/**
 * What the console reads, in SQL both PGlite and PostgreSQL run (counts cast to
 * int, percentiles with percentile_cont). Evaluation asks are left out.
 */
export interface DayRow {
  readonly day: string;
  readonly answered: number;
  readonly abstained: number;
  readonly p50: number | null;
  readonly p95: number | null;
}

export interface Overview {
  readonly days: readonly DayRow[];
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

const live = (since: Date): SQL =>
  and(ne(interactions.channel, 'eval'), inArray(interactions.decision, ['answer', 'abstain']), gte(interactions.createdAt, since)) as SQL;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function overview(db: Db, since: Date): Promise<Overview> {
  const where = live(since);
  const days = await rows<DayRow>(
    db,
    sql`select to_char(date_trunc('day', ${interactions.createdAt} at time zone 'UTC'), 'YYYY-MM-DD') as day,
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
    days: days.map((d) => ({ day: d.day, answered: Number(d.answered), abstained: Number(d.abstained), p50: num(d.p50), p95: num(d.p95) })),
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

export interface InteractionFilter {
  readonly decision?: string | undefined;
  readonly reason?: string | undefined;
  readonly channel?: string | undefined;
  readonly kb?: string | undefined;
}

export const PAGE_SIZE = 50;

/** One page of interactions, newest first, and whether there is a next one. */
export async function listInteractions(db: Db, filter: InteractionFilter, page: number) {
  const conditions = [
    ne(interactions.channel, 'eval'),
    filter.decision ? eq(interactions.decision, filter.decision) : undefined,
    filter.reason ? eq(interactions.reason, filter.reason) : undefined,
    filter.channel ? eq(interactions.channel, filter.channel) : undefined,
    filter.kb ? eq(knowledgeBases.name, filter.kb) : undefined,
  ];
  const found = await db
    .select({
      id: interactions.id,
      createdAt: interactions.createdAt,
      channel: interactions.channel,
      kb: knowledgeBases.name,
      kbVersion: interactions.kbVersion,
      question: interactions.question,
      decision: interactions.decision,
      reason: interactions.reason,
      answerability: interactions.answerability,
      latencyMs: interactions.latencyMs,
    })
    .from(interactions)
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(and(...conditions))
    .orderBy(desc(interactions.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return { rows: found.slice(0, PAGE_SIZE), more: found.length > PAGE_SIZE };
}

/** The values the interaction filters offer. */
export async function filterChoices(db: Db) {
  const distinct = async (column: SQL) =>
    (
      await rows<{ v: string }>(
        db,
        sql`select distinct ${column} as v from ${interactions} where ${column} is not null and ${interactions.channel} <> 'eval' order by 1 limit 100`,
      )
    ).map((r) => r.v);
  return {
    reasons: await distinct(sql`${interactions.reason}`),
    channels: await distinct(sql`${interactions.channel}`),
    kbs: (await db.select({ name: knowledgeBases.name }).from(knowledgeBases).orderBy(knowledgeBases.name)).map((k) => k.name),
  };
}

export async function findInteraction(db: Db, id: number) {
  const [row] = await db
    .select({ interaction: interactions, kb: knowledgeBases.name, sampleId: reviewSamples.id, stratum: reviewSamples.stratum })
    .from(interactions)
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .leftJoin(reviewSamples, eq(reviewSamples.interactionId, interactions.id))
    .where(eq(interactions.id, id));
  return row ?? null;
}

/** The newest review samples with their interactions. */
export async function reviewSamplesPage(db: Db, limit = 100) {
  return db
    .select({
      sampleId: reviewSamples.id,
      interactionId: interactions.id,
      stratum: reviewSamples.stratum,
      postedTo: reviewSamples.postedTo,
      createdAt: reviewSamples.createdAt,
      question: interactions.question,
      decision: interactions.decision,
      reason: interactions.reason,
    })
    .from(reviewSamples)
    .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
    .orderBy(desc(reviewSamples.id))
    .limit(limit);
}

/** Stored agreement reports, newest first. */
export async function agreementHistory(db: Db, limit = 60) {
  return db
    .select({
      id: agreementReports.id,
      runKey: agreementReports.runKey,
      report: agreementReports.report,
      createdAt: agreementReports.createdAt,
    })
    .from(agreementReports)
    .orderBy(desc(agreementReports.createdAt), desc(agreementReports.id))
    .limit(limit);
}
