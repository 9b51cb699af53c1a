import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { ConsoleSettings } from '../../config/console-settings.js';
import type { SignedInBy } from './console-auth.js';
import { html, type Html } from './html.js';

/** The form field every console form post carries. */
export const CSRF_FIELD = 'csrf';

/**
 * The CSRF token of a signed-in browser, for the hidden field of every form: an HMAC of the session cookie
 * (token sign-in) or of the user name (basic auth) under a key derived from the secret that signed them in,
 * so every replica computes the same token and no other site can. Null for a bearer token, which a browser
 * never sends by itself (a script's post needs no token).
 */
export function csrfToken(via: SignedInBy, user: string, settings: ConsoleSettings): string | null {
  if (via.kind === 'bearer') return null;
  const secret = via.kind === 'session' ? `token:${settings.token ?? ''}` : `basic:${user}:${via.password}`;
  const key = createHash('sha256').update(`candor-console-csrf:${secret}`).digest();
  return createHmac('sha256', key)
    .update(via.kind === 'session' ? `session:${via.session}` : `basic:${user}`)
    .digest('base64url');
}

/** Whether a posted token is the expected one, compared in constant time (as digests: lengths do not leak). */
export function csrfMatches(given: string | null | undefined, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return typeof given === 'string' && given !== '' && timingSafeEqual(digest(given), digest(expected));
}

/** The hidden field a form carries (nothing for a bearer-token viewer). */
export function csrfInput(token: string | null | undefined): Html | '' {
  return token ? html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />` : '';
}
