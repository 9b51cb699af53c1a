import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { SignedInBy } from './console-auth.js';
import { html, type Html } from './html.js';

/** The form field every console form post carries. */
export const CSRF_FIELD = 'csrf';

/**
 * The CSRF token of a signed-in browser, for the hidden field of every form. A session's is an HMAC keyed by
 * its id (256 random bits, never shown to a page), so each session has its own and every replica computes
 * it; a basic-auth user's is an HMAC of the user name under a key derived from their password. No other site
 * can compute either. Null for a bearer token, which a browser never sends by itself (a script's post needs
 * no token).
 */
export function csrfToken(via: SignedInBy, user: string): string | null {
  if (via.kind === 'bearer') return null;
  if (via.kind === 'session') return createHmac('sha256', via.session).update('candor-console-csrf').digest('base64url');
  const key = createHash('sha256').update(`candor-console-csrf:basic:${user}:${via.password}`).digest();
  return createHmac('sha256', key).update(`basic:${user}`).digest('base64url');
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
