import type { IncomingMessage } from 'node:http';

import { sameSecret } from '../../channels/http/bearer-token.js';
import type { ConsoleSettings } from '../../config/console-settings.js';
import type { ConsoleSessions } from '../console-sessions.js';

export const SESSION_COOKIE = 'candor_console';
/** A console session lasts a working day; then the token is asked for again. */
export const SESSION_SECONDS = 12 * 3600;

/**
 * Who is looking: a basic-auth user, or "token" for the shared token (form login or Bearer). A refusal says
 * whether credentials were presented (and were wrong), which is what sign-in throttling counts.
 */
export type Viewer =
  { readonly ok: true; readonly user: string; readonly via: SignedInBy } | { readonly ok: false; readonly presented: boolean };

/**
 * How a viewer signed in. A browser sends a session cookie or basic-auth credentials by itself (so their form
 * posts need a CSRF token); a bearer token only when a script puts it there.
 */
export type SignedInBy =
  | { readonly kind: 'bearer' }
  | { readonly kind: 'session'; readonly session: string }
  | { readonly kind: 'basic'; readonly password: string };

/**
 * Checks a request's credentials against the settings: `Authorization: Bearer`, `Authorization: Basic`, or the
 * session cookie the sign-in form set, looked up in the shared store (so every replica accepts it until it
 * expires or is signed out). An unknown, expired or revoked session is refused without counting as a failed
 * sign-in: a session id is 256 random bits, not worth throttling guesses of, and an honest browser keeps an old
 * cookie for a while.
 */
export async function authenticate(
  req: IncomingMessage,
  settings: ConsoleSettings,
  sessions: Pick<ConsoleSessions, 'find'>,
  nowMs: number,
): Promise<Viewer> {
  if (!settings.enabled) return { ok: false, presented: false };
  const header = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer !== undefined)
    return settings.token !== undefined && sameSecret(bearer, settings.token)
      ? { ok: true, user: 'token', via: { kind: 'bearer' } }
      : { ok: false, presented: true };
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header)?.[1];
  if (basic !== undefined) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const user = decoded.slice(0, decoded.indexOf(':'));
    const password = decoded.slice(decoded.indexOf(':') + 1);
    // Every configured user is compared, so the time taken does not tell which user names exist.
    const match = settings.basicAuth.filter((u) => sameSecret(`${user}:${password}`, `${u.user}:${u.password}`));
    return match.length > 0 ? { ok: true, user, via: { kind: 'basic', password } } : { ok: false, presented: true };
  }
  const session = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (session === undefined || settings.token === undefined) return { ok: false, presented: false };
  const found = await sessions.find(session, nowMs);
  return found ? { ok: true, user: found.viewer, via: { kind: 'session', session } } : { ok: false, presented: false };
}

/**
 * Whether a viewer may sign everyone out: whoever holds the console token (signed in with it or a sign-in link
 * it issued, or sending it as a bearer token). Basic-auth users are people an operator lists one by one; they
 * have no sessions to end, and removing one from CANDOR_CONSOLE_BASIC_AUTH is how their access ends.
 */
export function isAdmin(via: SignedInBy): boolean {
  return via.kind === 'session' || via.kind === 'bearer';
}

/** Whether a request carries credentials of its own (an Authorization header or a session cookie). */
export function presentsCredentials(req: IncomingMessage): boolean {
  return req.headers.authorization !== undefined || readCookie(req.headers.cookie, SESSION_COOKIE) !== undefined;
}

export function tokenMatches(given: string, settings: ConsoleSettings): boolean {
  return settings.token !== undefined && sameSecret(given, settings.token);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return ''; // malformed percent-encoding: a cookie that is there but cannot be a session
      }
    }
  }
  return undefined;
}

/**
 * A form post must come from the console's own pages: browsers send Origin on
 * POST, and a cross-site one is refused (basic-auth credentials and cookies
 * would otherwise ride along). Without Origin (curl, older clients) the
 * credentials alone decide.
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || host === req.headers['x-forwarded-host'];
  } catch {
    return false;
  }
}
