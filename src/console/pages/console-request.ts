import type { IncomingMessage, ServerResponse } from 'node:http';

import { storableText } from '../../core/text/storable-text.js';
import type { ConsoleReads } from '../console-reads.js';
import { isAdmin, type SignedInBy } from './console-auth.js';
import type { ConsoleRequest } from './console-context.js';
import { readForm, send } from './console-http.js';
import { CSRF_FIELD, csrfMatches, csrfToken } from './csrf.js';
import { layout } from './layout.js';

/**
 * A signed-in request as the page handlers receive it: its form read (refused with 403, and `true` returned,
 * when a browser's post lacks the page's CSRF token), its filters, the KBs, and the page frame.
 */
export async function signedInRequest(
  http: { req: IncomingMessage; res: ServerResponse; url: URL; reading: boolean },
  viewer: { user: string; via: SignedInBy },
  deps: { reads: ConsoleReads; maxBodyBytes: number },
): Promise<ConsoleRequest | true> {
  const { req, res, url, reading } = http;
  const csrf = csrfToken(viewer.via, viewer.user);
  const admin = isAdmin(viewer.via);
  let form: URLSearchParams | null = null;
  if (!reading) {
    form = await readForm(req, deps.maxBodyBytes);
    if (csrf !== null && !csrfMatches(form.get(CSRF_FIELD), csrf))
      return send(
        res,
        403,
        'This form did not carry the console’s token (it came from elsewhere, or the page is older than your sign-in): reload the page and try again.',
        'text/plain; charset=utf-8',
      );
  }
  // Filters reach SQL: a NUL or lone surrogate in one is a value no row holds, not a database error.
  const q = (name: string) => {
    const value = url.searchParams.get(name);
    return value === null || value === '' ? undefined : storableText(value);
  };
  const kbs = await deps.reads.kbNames();
  const kb = q('kb');
  return {
    req,
    res,
    url,
    reading,
    user: viewer.user,
    admin,
    csrf,
    form,
    kb,
    kbs,
    q,
    page: (title, active, body, options = {}) =>
      send(
        res,
        options.status ?? 200,
        layout({ title, active, user: viewer.user, body, kb: { kb: 'kb' in options ? options.kb : kb, kbs }, signOut: { csrf, admin } }),
      ),
  };
}
