import type { ConsoleSettings } from '../../config/console-settings.js';
import type { ConsoleSessions } from '../console-sessions.js';

/** How long a printed sign-in link works. @default 15 minutes */
export const SIGN_IN_LINK_MS = 15 * 60_000;
/** Where a sign-in link points: the sign-in page, with the code as `code`. */
export const SIGN_IN_LINK_PATH = '/login';

/** One-time codes that sign a browser in to the console as the token would. */
export interface SignInLinks {
  /** A fresh code (256 random bits), usable once before it expires. */
  issue(): Promise<string>;
  /** True once for an issued, unexpired code, which is spent by it; false for any other string. */
  redeem(code: string): Promise<boolean>;
}

/**
 * The codes live in the shared store, as digests (never the code itself, never logged), so a link printed by
 * one replica works on whichever replica the browser reaches, once. The clock is passed in, so tests are exact.
 */
export function signInLinks(
  sessions: Pick<ConsoleSessions, 'issueLink' | 'redeemLink'>,
  options: { now?: () => number; ttlMs?: number } = {},
): SignInLinks {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? SIGN_IN_LINK_MS;
  return {
    issue: () => sessions.issueLink(now(), ttlMs),
    redeem: (code) => sessions.redeemLink(code, now()),
  };
}

/**
 * What `candor serve` prints after "Console:": where the console is and how to sign in. With a token, a
 * one-time sign-in link (the token itself is never printed), but not in production, whose output goes to logs
 * that more people read than hold the token.
 */
export async function consoleStartLine(
  url: string,
  settings: ConsoleSettings,
  options: { production: boolean; links: SignInLinks },
): Promise<string> {
  if (!settings.enabled) return 'off (set CANDOR_CONSOLE_TOKEN or CANDOR_CONSOLE_BASIC_AUTH to open it)';
  if (settings.token === undefined) return `${url}/ (sign in with a user and password from CANDOR_CONSOLE_BASIC_AUTH)`;
  if (options.production) return `${url}/ (sign in with CANDOR_CONSOLE_TOKEN; no sign-in link is printed in production)`;
  const minutes = SIGN_IN_LINK_MS / 60_000;
  return `${url}${SIGN_IN_LINK_PATH}?code=${await options.links.issue()} (a sign-in link: works once, for ${minutes} minutes; then sign in with CANDOR_CONSOLE_TOKEN)`;
}
