import { eq } from 'drizzle-orm';

import { isListedExpert, type ExpertsEntry } from '../config/experts-setting.js';
import { documentsOf, documentStates, findSource, listSources, type SourceDocumentRow } from '../kb/sources/source-records.js';
import { sourceView, type SourceView } from '../kb/sources/source-view.js';
import type { Db } from '../store/open-store.js';
import { sources } from '../store/schema.js';
import { CONSOLE_EXPERT_PLATFORM } from './console-gaps.js';

/** The console's Sources page: each source's freshness, its documents, and "Sync now" for the KB's owners. */
export interface ConsoleSources {
  list(kb: string | undefined): Promise<SourceView[]>;
  /** A source and its documents (failing and stale ones first), or null when there is none. */
  detail(id: number): Promise<{ source: SourceView; documents: SourceDocumentRow[]; staleBefore: Date } | null>;
  /** Whether a console user may sync a KB's sources now: its owners, the KB's console experts (console:NAME in CANDOR_EXPERTS). */
  canSync(kb: string, user: string): boolean;
  /** Why a console user sees no "Sync now", in words they can act on. */
  whyNot(kb: string, user: string): string;
  /** Marks the source due now: the next look of any replica (within `pollSeconds`) syncs it. False when there is none. */
  syncSoon(id: number): Promise<boolean>;
  readonly pollSeconds: number;
}

export function createConsoleSources(deps: {
  db: Db;
  experts: readonly ExpertsEntry[];
  staleDays: number;
  pollMs: number;
  now?: () => Date;
}): ConsoleSources {
  const { db, staleDays } = deps;
  const now = deps.now ?? (() => new Date());
  const staleBefore = () => new Date(now().getTime() - staleDays * 86_400_000);
  const people = (kb: string) => deps.experts.find((entry) => entry.kb === kb)?.people ?? [];
  return {
    async list(kb) {
      const states = await documentStates(db, staleBefore());
      return (await listSources(db, kb)).map((row) => sourceView(row, states.get(row.id) ?? {}, staleDays));
    },
    async detail(id) {
      const row = await findSource(db, id);
      if (!row) return null;
      const before = staleBefore();
      const states = await documentStates(db, before);
      return { source: sourceView(row, states.get(id) ?? {}, staleDays), documents: await documentsOf(db, id), staleBefore: before };
    },
    canSync: (kb, user) => isListedExpert(people(kb), CONSOLE_EXPERT_PLATFORM, user),
    whyNot: (kb, user) =>
      people(kb).some((p) => p.startsWith(`${CONSOLE_EXPERT_PLATFORM}:`))
        ? `“${user}” is not an owner of “${kb}”: its owners are its console experts (console:NAME in CANDOR_EXPERTS).`
        : `Nobody syncs “${kb}” from the console: CANDOR_EXPERTS lists no console:NAME for it (candor sources sync works).`,
    async syncSoon(id) {
      const updated = await db.update(sources).set({ nextRunAt: now() }).where(eq(sources.id, id)).returning({ id: sources.id });
      return updated.length > 0;
    },
    pollSeconds: Math.round(deps.pollMs / 1000),
  };
}
