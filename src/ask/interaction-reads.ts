import { and, desc, eq, gt, ne } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';
import type { ClaimStatus } from './record-interaction.js';

/** Where to look for a thread's earlier question. */
export interface ThreadLookup {
  readonly channel: string;
  readonly threadRef: string;
  /** This question's own event: never its own earlier question (a retry finds its own row). */
  readonly eventId: string;
  /** Only a question asked this recently counts (a direct message's running conversation); unset: any. */
  readonly withinMs?: number | undefined;
}

/** What the chat ask reads of interaction rows (it writes them through the recorder only). */
export interface InteractionReads {
  /** The row an earlier try of this event claimed (a retry after a crash answers into it), or null. */
  find(channel: string, eventId: string): Promise<number | null>;
  /** The question the bot last answered or refused in a thread (as judged), or null when it has not replied there. */
  earlier(lookup: ThreadLookup): Promise<string | null>;
}

/** The production reads, on the interactions table. */
export function createInteractionReads(db: Db): InteractionReads {
  return {
    async find(channel, eventId) {
      const [row] = await db
        .select({ id: interactions.id })
        .from(interactions)
        .where(and(eq(interactions.channel, channel), eq(interactions.eventId, eventId)));
      return row?.id ?? null;
    },
    async earlier(lookup) {
      const [row] = await db
        .select({ question: interactions.question })
        .from(interactions)
        .where(
          and(
            eq(interactions.channel, lookup.channel),
            eq(interactions.threadRef, lookup.threadRef),
            eq(interactions.status, 'done' satisfies ClaimStatus),
            ne(interactions.eventId, lookup.eventId),
            lookup.withinMs === undefined ? undefined : gt(interactions.createdAt, new Date(Date.now() - lookup.withinMs)),
          ),
        )
        .orderBy(desc(interactions.id))
        .limit(1);
      return row?.question ?? null;
    },
  };
}
