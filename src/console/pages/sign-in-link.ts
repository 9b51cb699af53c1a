import { createHash, randomBytes } from 'node:crypto';

import type { ConsoleSettings } from '../../config/console-settings.js';

/** How long a printed sign-in link works. @default 15 minutes */
export const SIGN_IN_LINK_MS = 15 * 60_000;
/** Where a sign-in link points: the sign-in page, with the code as `code`. */
export const SIGN_IN_LINK_PATH = '/login';
/** Codes held at once; issuing beyond it forgets the oldest (serve issues one per start). */
const MAX_CODES = 100;

/** One-time codes that sign a browser in to the console as the token would. */
export interface SignInLinks {
  /** A fresh code (256 random bits), usable once before it expires. */
  issue(): string;
  /** True once for an issued, unexpired code, which is spent by it; false for any other string. */
  redeem(code: string): boolean;
}

/**
 * The codes live in this process's memory only (never stored or logged), as digests, so a link printed by
 * one replica works on that replica alone, and a restart ends every link. The clock and the random bytes are
 * passed in, so tests are exact.
 */
export function signInLinks(options: { now?: () => number; random?: (bytes: number) => Buffer; ttlMs?: number } = {}): SignInLinks {
  const now = options.now ?? Date.now;
  const random = options.random ?? randomBytes;
  const ttlMs = options.ttlMs ?? SIGN_IN_LINK_MS;
  const expiries = new Map<string, number>();
  const digest = (code: string) => createHash('sha256').update(code).digest('base64url');
  return {
    issue() {
      const code = random(32).toString('base64url');
      for (const [key, expires] of expiries) if (expires <= now()) expiries.delete(key);
      if (expiries.size >= MAX_CODES) expiries.delete(expiries.keys().next().value!);
      expiries.set(digest(code), now() + ttlMs);
      return code;
    },
    redeem(code) {
      const key = digest(code);
      const expires = expiries.get(key);
      expiries.delete(key);
      return expires !== undefined && now() < expires;
    },
  };
}

/**
 * What `candor serve` prints after "Console:": where the console is and how to sign in. With a token, a
 * one-time sign-in link (the token itself is never printed), but not in production, whose output goes to logs
 * that more people read than hold the token.
 */
export function consoleStartLine(url: string, settings: ConsoleSettings, options: { production: boolean; links: SignInLinks }): string {
  if (!settings.enabled) return 'off (set CANDOR_CONSOLE_TOKEN or CANDOR_CONSOLE_BASIC_AUTH to open it)';
  if (settings.token === undefined) return `${url}/ (sign in with a user and password from CANDOR_CONSOLE_BASIC_AUTH)`;
  if (options.production) return `${url}/ (sign in with CANDOR_CONSOLE_TOKEN; no sign-in link is printed in production)`;
  const minutes = SIGN_IN_LINK_MS / 60_000;
  return `${url}${SIGN_IN_LINK_PATH}?code=${options.links.issue()} (a sign-in link: works once, for ${minutes} minutes; then sign in with CANDOR_CONSOLE_TOKEN)`;
}
