import { and, desc, eq, gt, ne } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';
import type { Decision } from './decision.js';
import {
  claimInteraction,
  closeInteraction,
  completeInteraction,
  type ClaimClosing,
  type ClaimStatus,
  type InteractionClaim,
  type Understood,
} from './record-interaction.js';

/** Where to look for a thread's earlier question. */
export interface ThreadLookup {
  readonly channel: string;
  readonly threadRef: string;
  /** This question's own event: never its own earlier question (a retry finds its own row). */
  readonly eventId: string;
  /** Only a question asked this recently counts (a direct message's running conversation); unset: any. */
  readonly withinMs?: number | undefined;
}

/** The claim operations a chat channel calls (it never sees the database). */
export interface InteractionClaims {
  /** Inserts the pending row; its id, or null when the event was claimed before. */
  claim(claim: InteractionClaim): Promise<number | null>;
  /** The row an earlier try of this event claimed (a retry after a crash answers into it), or null. */
  find(channel: string, eventId: string): Promise<number | null>;
  /** Fills the claimed row with the decision (and, for a follow-up, the standalone question it judged). */
  complete(id: number, decision: Decision, understood?: Understood): Promise<void>;
  /** The question the bot last answered or refused in a thread (as judged), or null when it has not replied there. */
  earlier(lookup: ThreadLookup): Promise<string | null>;
  /** Closes a claimed row that got no decision. */
  close(id: number, outcome: ClaimClosing): Promise<void>;
}

/** The production claims, on the interactions table. */
export function createInteractionClaims(db: Db): InteractionClaims {
  return {
    claim: (claim) => claimInteraction(db, claim),
    async find(channel, eventId) {
      const [row] = await db
        .select({ id: interactions.id })
        .from(interactions)
        .where(and(eq(interactions.channel, channel), eq(interactions.eventId, eventId)));
      return row?.id ?? null;
    },
    complete: (id, decision, understood) => completeInteraction(db, id, decision, understood),
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
    close: (id, outcome) => closeInteraction(db, id, outcome),
  };
}
