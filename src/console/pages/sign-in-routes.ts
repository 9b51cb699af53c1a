import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ConsoleSettings } from '../../config/console-settings.js';
import { newSession, SESSION_COOKIE, SESSION_SECONDS, tokenMatches } from './console-auth.js';
import { readForm, redirect, safeNext, send } from './console-http.js';
import { loginPage } from './login-page.js';
import type { SignInLinks } from './sign-in-link.js';

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
 * `/login`: the token form (GET shows it, POST checks the token), and the printed one-time links. A good
 * token or link sets the session cookie and goes on to `next` (a path on this server only).
 */
export function loginRoute(deps: {
  settings: ConsoleSettings;
  signInLinks?: SignInLinks | undefined;
  maxBodyBytes: number;
  now: () => number;
}): (request: LoginRequest) => Promise<true> {
  return async ({ req, res, url, reading, code, signedIn, failed }) => {
    const token = deps.settings.token;
    if (token === undefined) return refuse(res, deps.settings, '/');
    const signIn = (next: string) => {
      const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
      res.setHeader(
        'set-cookie',
        `${SESSION_COOKIE}=${newSession(token, deps.now())}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}`,
      );
      return redirect(res, next);
    };
    if (code !== null) {
      // A printed one-time link: it signs in as the token would, once; a spent link is harmless to one signed in.
      if (deps.signInLinks?.redeem(code)) return signIn('/');
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

/** `/logout`: the session cookie cleared, back to the sign-in form. */
export function logout(res: ServerResponse): true {
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
