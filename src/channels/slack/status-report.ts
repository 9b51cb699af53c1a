import { and, gte, isNotNull, sql } from 'drizzle-orm';

import { kbStatus } from '../../kb/ingest/ingest.js';
import type { Db } from '../../store/open-store.js';
import { interactions } from '../../store/schema.js';

export interface StatusReport {
  readonly kb: string;
  /** Null when the KB does not exist yet. */
  readonly version: number | null;
  readonly facts: number;
  readonly documents: number;
  /** Decided questions since midnight UTC, over every channel. */
  readonly today: { readonly asked: number; readonly abstained: number; readonly since: Date };
}

/** What `/candor status` shows: the KB's version and size, and today's abstention rate. */
export async function statusReport(db: Db, kb: string, now: Date = new Date()): Promise<StatusReport> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [status, counts] = await Promise.all([
    kbStatus(db, kb),
    db
      .select({
        asked: sql<number>`count(*)::int`,
        abstained: sql<number>`(count(*) filter (where ${interactions.decision} = 'abstain'))::int`,
      })
      .from(interactions)
      .where(and(gte(interactions.createdAt, since), isNotNull(interactions.decision))),
  ]);
  return {
    kb,
    version: status?.version ?? null,
    facts: status?.facts ?? 0,
    documents: status?.documents ?? 0,
    today: { asked: counts[0]?.asked ?? 0, abstained: counts[0]?.abstained ?? 0, since },
  };
}

/** The report in plain words (Slack mrkdwn; Teams renders the asterisks as bold too). */
export function formatStatusReport(r: StatusReport): string {
  const kbLine =
    r.version === null
      ? `Knowledge base *${r.kb}* does not exist yet: ingest documents with \`candor ingest PATH --kb ${r.kb}\`.`
      : `Knowledge base *${r.kb}*: version ${r.version}, ${r.facts} facts from ${r.documents} documents.`;
  const rate =
    r.today.asked === 0
      ? 'no questions yet'
      : `${r.today.abstained} of ${r.today.asked} abstained (${((r.today.abstained / r.today.asked) * 100).toFixed(1)}%)`;
  return `${kbLine}\nToday (since 00:00 UTC): ${rate}.`;
}
