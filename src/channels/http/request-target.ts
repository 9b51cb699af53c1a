import type { IncomingMessage } from 'node:http';

import { CandorError } from '../../kernel/errors.js';

const parsed = new WeakMap<IncomingMessage, URL>();

/**
 * The request target as a URL, or null when it is not one a client could mean:
 * origin-form (`/path?query`) and absolute-form (`http://host/path`) only. A
 * target that starts with `//` names an authority where a path belongs, and
 * `*`, bare words and unparseable absolute forms (`http://`, `http://[`) are
 * refused too, so every route reads the same, valid path.
 */
export function parseRequestTarget(target: string | undefined): URL | null {
  if (target === undefined || target === '') return null;
  // A % that does not start an escape (`/%%`, `/%zz`) is no URL: WHATWG parsing would let it through unchanged.
  if (/%(?![0-9A-Fa-f]{2})/.test(target)) return null;
  try {
    if (target.startsWith('/')) return target.startsWith('//') ? null : new URL(target, 'http://candor.invalid');
    if (/^https?:\/\/[^/?#]/i.test(target)) return new URL(target);
  } catch {
    return null;
  }
  return null;
}

/** Checks the target once, before any route runs; false for a target to refuse with 400. */
export function acceptRequestTarget(req: IncomingMessage): boolean {
  const url = parseRequestTarget(req.url);
  if (url) parsed.set(req, url);
  return url !== null;
}

/** The request's URL, as checked at the server's boundary. */
export function requestUrl(req: IncomingMessage): URL {
  const known = parsed.get(req);
  if (known) return known;
  const url = parseRequestTarget(req.url);
  if (!url) throw new CandorError('input_invalid', 'The request target is not a path on this server.', { status: 400 });
  parsed.set(req, url);
  return url;
}

/** The request's path: what routes match on, and the only part of the URL that is logged (never the query). */
export function requestPath(req: IncomingMessage): string {
  return requestUrl(req).pathname;
}
