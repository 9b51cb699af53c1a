import { listFacts, type ExpertFactRow } from '../kb/expert-facts.js';
import { EXPERT_SOURCE_PREFIX } from '../kb/knowledge-index.js';
import type { Db } from '../store/open-store.js';

/** Whether the KB uses an expert fact: yes, no longer (its re-confirmation is due), or retired. */
export type ExpertFactStatus = 'active' | 'due' | 'retired';

/** An expert fact as `candor kb facts` and the console's facts page show it. */
export interface ExpertFactView extends ExpertFactRow {
  readonly status: ExpertFactStatus;
  /** When it stops being used unless re-confirmed (the KB's reconfirmDays); null when it never does. */
  readonly dueAt: string | null;
}

/**
 * A KB's expert facts, newest first (retired ones too when asked), each with
 * its status: a fact past its KB's re-confirmation window stays stored but is
 * not used until an expert re-confirms it (see KnowledgeIndexCache).
 */
export async function listExpertFacts(
  db: Db,
  options: { kb: string; includeRetired: boolean; reconfirmDays: number | undefined; now: Date },
): Promise<ExpertFactView[]> {
  const rows = await listFacts(db, { kb: options.kb, sourcePrefix: EXPERT_SOURCE_PREFIX, includeRetired: options.includeRetired });
  return rows.map((row) => {
    const due =
      options.reconfirmDays === undefined || row.confirmedAt === null
        ? null
        : new Date(new Date(row.confirmedAt).getTime() + options.reconfirmDays * 86_400_000);
    const status: ExpertFactStatus =
      row.retiredInVersion !== null ? 'retired' : due !== null && due.getTime() <= options.now.getTime() ? 'due' : 'active';
    return { ...row, status, dueAt: due?.toISOString() ?? null };
  });
}
