import { and, eq, inArray, sql } from 'drizzle-orm';

import { storableJson, storableText } from '../core/text/storable-text.js';
import { createGroupCommit } from '../store/group-commit.js';
import type { Db, Store } from '../store/open-store.js';
import { inbox } from '../store/schema.js';

/** A question as a chat channel stores it on receipt. */
export interface InboxEntry {
  readonly channel: string;
  readonly eventId: string;
  /** What the channel needs to answer and reply later (no raw user id). */
  readonly payload: Record<string, unknown>;
}

/** A row a worker holds under a lease. */
export interface ClaimedEntry extends InboxEntry {
  readonly id: number;
  /** 1 on the first try. */
  readonly attempts: number;
  /** Set when a reply was posted by an earlier try that did not finish. */
  readonly postedRef: string | null;
  /**
   * An earlier try sent a reply it may not have seen accepted: it may be in the conversation (the row is
   * claimed only once it would have landed). False when no earlier try sent one.
   */
  readonly maybeSent: boolean;
}

/** The inbox operations chat channels and their workers call (they never see the database). */
export interface Inbox {
  /** Stores an entry; resolves once it is durable: true when new, false when the event was stored before. */
  put(entry: InboxEntry): Promise<boolean>;
  /**
   * Takes up to `limit` open rows of a channel (new ones, or ones whose lease ran out) under a lease; a row whose
   * reply may still be landing (see `sending`) waits until it would have.
   */
  claim(channel: string, owner: string, limit: number, leaseMs: number): Promise<ClaimedEntry[]>;
  /** Extends the lease of rows this owner still holds. */
  extend(ids: readonly number[], owner: string, leaseMs: number): Promise<void>;
  /**
   * Marks that this try sends a reply that may land up to `landsWithinMs` from now (0: whatever was sent has
   * landed or never will): the row is not taken again before then, and the try that takes it looks first.
   */
  sending(id: number, landsWithinMs: number): Promise<void>;
  /** Records the posted reply's id, before the row is marked done. */
  posted(id: number, ref: string): Promise<void>;
  done(id: number, owner: string, postedRef: string | null): Promise<void>;
  /** A failed try: retried after `retryInMs`, or given up for good when `final`. */
  fail(id: number, owner: string, error: string, options: { final: boolean; retryInMs: number }): Promise<void>;
  /** Gives this owner's rows back (graceful shutdown). */
  release(owner: string): Promise<void>;
  /** Makes every claimed row claimable now: for the embedded store, where one process holds the folder, so any claim is a dead one's. */
  recoverAll(): Promise<number>;
}

/** The production inbox on the `inbox` table; puts are group-committed (see createGroupCommit for a failed batch). */
export function createInbox(store: Pick<Store, 'db'>): Inbox {
  const { db } = store;
  const puts = createGroupCommit((entries: readonly InboxEntry[]) => insertEntries(db, entries), { maxBatch: 500 });
  return {
    put: (entry) => puts.submit(entry),
    claim: (channel, owner, limit, leaseMs) => claimOpenRows(db, channel, owner, limit, leaseMs),
    async extend(ids, owner, leaseMs) {
      if (ids.length === 0) return;
      await db
        .update(inbox)
        .set({ leaseUntil: sql`now() + (${leaseMs}::int * interval '1 millisecond')` })
        .where(and(inArray(inbox.id, [...ids]), eq(inbox.leaseOwner, owner), eq(inbox.status, 'claimed')));
    },
    async sending(id, landsWithinMs) {
      await db
        .update(inbox)
        .set({ sendingUntil: sql`now() + (${Math.max(0, Math.round(landsWithinMs))}::int * interval '1 millisecond')` })
        .where(eq(inbox.id, id));
    },
    async posted(id, ref) {
      await db.update(inbox).set({ postedRef: ref }).where(eq(inbox.id, id));
    },
    async done(id, owner, postedRef) {
      await db
        .update(inbox)
        .set({ status: 'done', doneAt: sql`now()`, leaseOwner: null, leaseUntil: null, ...(postedRef === null ? {} : { postedRef }) })
        .where(and(eq(inbox.id, id), eq(inbox.leaseOwner, owner)));
    },
    async fail(id, owner, error, { final, retryInMs }) {
      await db
        .update(inbox)
        .set(
          final
            ? { status: 'failed', lastError: error.slice(0, 2000), doneAt: sql`now()`, leaseOwner: null, leaseUntil: null }
            : // Still claimed, by nobody, until the backoff runs out: then any worker takes it again.
              {
                lastError: error.slice(0, 2000),
                leaseOwner: null,
                leaseUntil: sql`now() + (${retryInMs}::int * interval '1 millisecond')`,
              },
        )
        .where(and(eq(inbox.id, id), eq(inbox.leaseOwner, owner)));
    },
    async release(owner) {
      await db
        .update(inbox)
        .set({ status: 'pending', leaseOwner: null, leaseUntil: null })
        .where(and(eq(inbox.leaseOwner, owner), eq(inbox.status, 'claimed')));
    },
    async recoverAll() {
      const rows = await db
        .update(inbox)
        .set({ status: 'pending', leaseOwner: null, leaseUntil: null })
        .where(eq(inbox.status, 'claimed'))
        .returning({ id: inbox.id });
      return rows.length;
    },
  };
}

/** Inserts a batch of entries in one statement; per entry, whether it is new (false: its event was stored before). */
async function insertEntries(db: Db, entries: readonly InboxEntry[]): Promise<boolean[]> {
  const batch = entries.map((e) => ({
    channel: storableText(e.channel),
    eventId: storableText(e.eventId),
    payload: storableJson(e.payload),
  }));
  const rows = await db.insert(inbox).values(batch).onConflictDoNothing().returning({ channel: inbox.channel, eventId: inbox.eventId });
  const fresh = new Set(rows.map((r) => `${r.channel}\u0000${r.eventId}`));
  // The same event twice in one batch: only its first occurrence is new.
  const seen = new Set<string>();
  return batch.map((e) => {
    const key = `${e.channel}\u0000${e.eventId}`;
    const isNew = fresh.has(key) && !seen.has(key);
    seen.add(key);
    return isNew;
  });
}

/** Takes up to `limit` open rows of a channel under a lease, oldest first; `skip locked` keeps two workers apart. */
async function claimOpenRows(db: Db, channel: string, owner: string, limit: number, leaseMs: number): Promise<ClaimedEntry[]> {
  if (limit <= 0) return [];
  const result = (await db.execute(sql`
    update ${inbox} set status = 'claimed', lease_owner = ${owner},
      lease_until = now() + (${leaseMs}::int * interval '1 millisecond'), attempts = attempts + 1
    where id in (
      select id from ${inbox}
      where channel = ${channel} and (status = 'pending' or (status = 'claimed' and lease_until < now()))
        and (sending_until is null or sending_until <= now())
      order by id limit ${limit}
      for update skip locked)
    returning id, channel, event_id as "eventId", payload, attempts, posted_ref as "postedRef",
      sending_until is not null as "maybeSent"`)) as unknown as {
    rows: ClaimedEntry[];
  };
  return result.rows.map((r) => ({ ...r, id: Number(r.id), maybeSent: r.maybeSent === true })).sort((a, b) => a.id - b.id);
}
