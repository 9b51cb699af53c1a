import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ConsoleSettings } from '../../config/console-settings.js';
import type { ConsoleSessions } from '../console-sessions.js';
import { readCookie, SESSION_COOKIE, SESSION_SECONDS, tokenMatches } from './console-auth.js';
import type { ConsoleRequest } from './console-context.js';
import { readForm, redirect, safeNext, send } from './console-http.js';
import { loginPage } from './login-page.js';
import { signInLinks } from './sign-in-link.js';

/** A request to `/login`, as the console's gate has already read it. */
export interface LoginRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** GET or HEAD. */
  readonly reading: boolean;
  /** A printed one-time link's `?code=` (GET only); null when there is none. */
  readonly code: string | null;
  /** Whether the request already carries valid credentials. */
  readonly signedIn: boolean;
  /** Counts a failed sign-in against the client. */
  failed(): void;
}

/**
 * `/login`: the token form (GET shows it, POST checks the token), and the printed one-time links (redeemed on
 * any replica). A good token or link starts a new session (a random id, stored) whose id the cookie carries,
 * and goes on to `next` (a path on this server only).
 */
export function loginRoute(deps: {
  settings: ConsoleSettings;
  sessions: ConsoleSessions;
  maxBodyBytes: number;
  now: () => number;
}): (request: LoginRequest) => Promise<true> {
  const links = signInLinks(deps.sessions, { now: deps.now });
  return async ({ req, res, url, reading, code, signedIn, failed }) => {
    if (deps.settings.token === undefined) return refuse(res, deps.settings, '/');
    const signIn = async (next: string) => {
      const session = await deps.sessions.start('token', deps.now(), SESSION_SECONDS * 1000);
      const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
      res.setHeader('set-cookie', `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}`);
      return redirect(res, next);
    };
    if (code !== null) {
      // A printed one-time link: it signs in as the token would, once; a spent link is harmless to one signed in.
      if (await links.redeem(code)) return signIn('/');
      if (signedIn) return redirect(res, '/');
      failed();
      return send(res, 401, loginPage('/', 'link'));
    }
    if (reading)
      return signedIn
        ? redirect(res, safeNext(url.searchParams.get('next')))
        : send(res, 200, loginPage(safeNext(url.searchParams.get('next'))));
    const form = await readForm(req, deps.maxBodyBytes);
    if (!tokenMatches(form.get('token') ?? '', deps.settings)) {
      failed();
      return send(res, 401, loginPage(safeNext(form.get('next')), 'token'));
    }
    return signIn(safeNext(form.get('next')));
  };
}

/**
 * `/logout`: the session the cookie names is revoked in the store (a copy of the cookie is refused from now on,
 * on every replica), the cookie cleared, back to the sign-in form. Needs no CSRF token: the cookie is
 * SameSite=Strict and cross-site posts are refused, and the worst a forged one could do is sign someone out.
 */
export async function logout(req: IncomingMessage, res: ServerResponse, sessions: ConsoleSessions, nowMs: number): Promise<true> {
  const session = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (session) await sessions.revoke(session, nowMs);
  return signedOut(res);
}

/**
 * `POST /sign-out-everywhere` (an admin: see isAdmin): every session on every replica revoked and every unspent
 * sign-in link withdrawn, for a copied cookie or a leaked link; the token itself stays (rotate it if it leaked).
 */
export async function signOutEverywhere(deps: { sessions: ConsoleSessions; now: () => number }, r: ConsoleRequest): Promise<true> {
  if (!r.admin)
    return send(r.res, 403, 'Only a viewer signed in with the console token may sign everyone out.', 'text/plain; charset=utf-8');
  await deps.sessions.revokeAll(deps.now());
  return signedOut(r.res);
}

function signedOut(res: ServerResponse): true {
  res.setHeader('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
  return redirect(res, '/login');
}

/** Not signed in: the token form (coming back to `next`), or a basic-auth challenge when there is no token. */
export function refuse(res: ServerResponse, settings: ConsoleSettings, next: string): true {
  if (settings.token !== undefined) return send(res, 401, loginPage(safeNext(next)));
  return send(res, 401, 'Sign in to the Candor console.', 'text/plain; charset=utf-8', {
    'www-authenticate': 'Basic realm="Candor console", charset="UTF-8"',
  });
}
