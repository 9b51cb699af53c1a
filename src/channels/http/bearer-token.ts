import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Compares two secrets in constant time (as digests, so their lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/**
 * When `token` is set, the request must carry `Authorization: Bearer <token>`;
 * otherwise answers 401 with a `WWW-Authenticate` challenge and returns false.
 * Unset: everything passes (the surface is public, as documented).
 */
export function bearerAllowed(req: IncomingMessage, res: ServerResponse, token: string | undefined, realm: string): boolean {
  if (token === undefined) return true;
  const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
  if (given !== '' && sameSecret(given, token)) return true;
  const body = JSON.stringify({ error: { code: 'unauthorized', message: `Send Authorization: Bearer <token> (the ${realm} token).` } });
  res.writeHead(401, {
    'www-authenticate': `Bearer realm="${realm}"`,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
  return false;
}
