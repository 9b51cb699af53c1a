import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Console sessions, one row per sign-in: the cookie holds 256 random bits, the row only their SHA-256, so a
 * copy of the table signs nobody in. Shared by every replica on the database; a session ends when it expires
 * or is revoked (signed out, or everyone signed out by an admin), whichever comes first.
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    /** SHA-256 of the session id (base64url); the id itself is only ever in the browser's cookie. */
    idHash: text('id_hash').primaryKey(),
    /** Who signed in: "token" (the console token or a sign-in link). */
    viewer: text('viewer').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it was signed out; null while it may be used. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('console_sessions_expires').on(t.expiresAt)],
);

/**
 * One-time sign-in links (`/login?code=…`) that `candor serve` prints: the code's SHA-256 only, spent by the
 * first replica that redeems it, so a link printed by one replica works behind a load balancer.
 */
export const consoleSignInLinks = pgTable(
  'console_sign_in_links',
  {
    codeHash: text('code_hash').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it signed a browser in (or was withdrawn); null while unspent. */
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [index('console_sign_in_links_expires').on(t.expiresAt)],
);
