import { isListedExpert, type ExpertsEntry } from '../config/experts-setting.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { actionValue } from './action-token.js';
import type { ExpertCard, ExpertSurface, Person } from './expert-types.js';
import { readCard, readGap, type GapRow } from './gap-reads.js';

/** What the experts desk's parts share: the store, the clock, the key its buttons are signed with, the channels attached. */
export interface DeskContext {
  readonly db: Db;
  readonly indexes: KnowledgeIndexCache;
  readonly experts: readonly ExpertsEntry[];
  readonly log: Log;
  readonly now: () => Date;
  /** Signs and reads button values (actionKey of the deployment's secret). */
  readonly key: Buffer;
  /** The chat channels attached, by platform. */
  readonly surfaces: Map<string, ExpertSurface>;
  /** The experts of a KB, or undefined when it names none. */
  entryOf(kb: string): ExpertsEntry | undefined;
}

/** Listed among the KB's people, or (on a chat platform) a member of a group listed there. */
export async function isExpertOf(ctx: DeskContext, entry: ExpertsEntry, person: Person): Promise<boolean> {
  if (isListedExpert(entry.people, person.platform, person.user)) return true;
  if (person.platform === 'cli' || person.platform === 'console') return false;
  const surface = ctx.surfaces.get(person.platform);
  return (await surface?.isGroupMember?.(entry.people, person.user).catch(() => false)) ?? false;
}

/** A gap as its experts' post shows it (and where it was posted), or null when there is none. */
export async function shownGap(ctx: DeskContext, gapId: number): Promise<{ gap: GapRow; card: ExpertCard } | null> {
  const gap = await readGap(ctx.db, gapId);
  return gap ? { gap, card: await readCard(ctx.db, ctx.indexes, gap, actionValue(ctx.key, 'gap', gapId), ctx.log) } : null;
}
