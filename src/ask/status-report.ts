import { and, gte, isNotNull, sql } from 'drizzle-orm';

import { kbStatus } from '../kb/ingest/ingest.js';
import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';

export interface StatusReport {
  readonly kb: string;
  /** Null when the KB does not exist yet. */
  readonly version: number | null;
  readonly facts: number;
  readonly documents: number;
  /** Decided questions since midnight UTC, over every channel. */
  readonly today: { readonly asked: number; readonly abstained: number; readonly since: Date };
}

/** The status of one knowledge base, as a chat channel asks for it (it never sees the database). */
export type StatusQuery = (kb: string) => Promise<StatusReport>;

/** The production status query. */
export function createStatusQuery(db: Db): StatusQuery {
  return (kb) => statusReport(db, kb);
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
