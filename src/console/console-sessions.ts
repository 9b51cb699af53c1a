import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { consoleSessions, consoleSignInLinks } from '../store/schema.js';

/** A signed-in session as the console reads it back. */
export interface ConsoleSession {
  /** Who signed in: "token" for the console token or a sign-in link. */
  readonly viewer: string;
  readonly expiresAt: Date;
}

/**
 * Console sessions and one-time sign-in links, in the shared store so every replica sees the same ones. Ids and
 * codes are 256 random bits handed to the browser once; only their SHA-256 is stored. Times are passed in
 * (milliseconds), so tests drive the clock.
 */
export interface ConsoleSessions {
  /** Starts a session for `viewer` lasting `ttlMs`; returns its id (the cookie's value). */
  start(viewer: string, nowMs: number, ttlMs: number): Promise<string>;
  /** The session `id` names if it is neither expired nor revoked at `nowMs`; null for any other string. */
  find(id: string, nowMs: number): Promise<ConsoleSession | null>;
  /** Ends one session (sign out): its cookie is refused from then on, on every replica. */
  revoke(id: string, nowMs: number): Promise<void>;
  /** Ends every session and withdraws every unspent sign-in link (sign out everywhere); returns the sessions ended. */
  revokeAll(nowMs: number): Promise<number>;
  /** A one-time sign-in code usable for `ttlMs`. */
  issueLink(nowMs: number, ttlMs: number): Promise<string>;
  /** True once for an issued, unexpired code (spent by it, on whichever replica redeems it first); false otherwise. */
  redeemLink(code: string, nowMs: number): Promise<boolean>;
}

/** Ids are 32 random bytes, base64url: anything else is not one of ours (and is not looked up). */
const ID_SHAPE = /^[\w-]{43}$/;

/** The production sessions over `db`; `random` is crypto's unless a test passes its own. */
export function createConsoleSessions(db: Db, options: { random?: (bytes: number) => Buffer } = {}): ConsoleSessions {
  const random = options.random ?? randomBytes;
  const fresh = () => random(32).toString('base64url');
  return {
    async start(viewer, nowMs, ttlMs) {
      const id = fresh();
      // Rows past their expiry can never sign anyone in again: dropped here, so the table holds live sessions only.
      await db.delete(consoleSessions).where(lt(consoleSessions.expiresAt, new Date(nowMs)));
      await db
        .insert(consoleSessions)
        .values({ idHash: digest(id), viewer, createdAt: new Date(nowMs), expiresAt: new Date(nowMs + ttlMs) });
      return id;
    },
    async find(id, nowMs) {
      if (!ID_SHAPE.test(id)) return null;
      const [row] = await db
        .select({ viewer: consoleSessions.viewer, expiresAt: consoleSessions.expiresAt })
        .from(consoleSessions)
        .where(
          and(eq(consoleSessions.idHash, digest(id)), isNull(consoleSessions.revokedAt), gt(consoleSessions.expiresAt, new Date(nowMs))),
        );
      return row ?? null;
    },
    async revoke(id, nowMs) {
      if (!ID_SHAPE.test(id)) return;
      await db
        .update(consoleSessions)
        .set({ revokedAt: new Date(nowMs) })
        .where(and(eq(consoleSessions.idHash, digest(id)), isNull(consoleSessions.revokedAt)));
    },
    async revokeAll(nowMs) {
      const at = new Date(nowMs);
      return db.transaction(async (tx) => {
        await tx.update(consoleSignInLinks).set({ spentAt: at }).where(isNull(consoleSignInLinks.spentAt));
        const ended = await tx
          .update(consoleSessions)
          .set({ revokedAt: at })
          .where(and(isNull(consoleSessions.revokedAt), gt(consoleSessions.expiresAt, at)))
          .returning({ idHash: consoleSessions.idHash });
        return ended.length;
      });
    },
    async issueLink(nowMs, ttlMs) {
      const code = fresh();
      await db.delete(consoleSignInLinks).where(lt(consoleSignInLinks.expiresAt, new Date(nowMs)));
      await db
        .insert(consoleSignInLinks)
        .values({ codeHash: digest(code), createdAt: new Date(nowMs), expiresAt: new Date(nowMs + ttlMs) });
      return code;
    },
    async redeemLink(code, nowMs) {
      if (!ID_SHAPE.test(code)) return false;
      // One statement: of two replicas redeeming the same code at once, one updates the row and the other finds it spent.
      const spent = await db
        .update(consoleSignInLinks)
        .set({ spentAt: new Date(nowMs) })
        .where(
          and(
            eq(consoleSignInLinks.codeHash, digest(code)),
            isNull(consoleSignInLinks.spentAt),
            gt(consoleSignInLinks.expiresAt, new Date(nowMs)),
          ),
        )
        .returning({ codeHash: consoleSignInLinks.codeHash });
      return spent.length === 1;
    },
  };
}

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
