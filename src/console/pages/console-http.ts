import type { IncomingMessage, ServerResponse } from 'node:http';

import { CandorError } from '../../kernel/errors.js';

/** No scripts at all; styles only from /console.css; forms post only here; never framed. */
export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, which sameOrigin refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/html; charset=utf-8',
  headers: Record<string, string> = {},
): true {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return true;
}

export function redirect(res: ServerResponse, location: string): true {
  res.writeHead(303, { ...SECURITY_HEADERS, location });
  res.end();
  return true;
}

/** Only a path on this server (never "//evil" or "https://…"), so a redirect cannot leave it. */
export function safeNext(next: string | null | undefined): string {
  return next && /^\/(?!\/)[\w\-./?=&%+]*$/.test(next) && !next.startsWith('/login') ? next : '/';
}

/** A url-encoded form body up to `limit` bytes. */
export async function readForm(req: IncomingMessage, limit: number): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
    throw new CandorError('input_invalid', 'Send the form as application/x-www-form-urlencoded.', { status: 415 });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new CandorError('input_invalid', `The form is larger than ${limit} bytes.`, { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Writes a streamed body chunk by chunk, waiting for the socket to drain when its buffer is full, so that a
 * large export never sits in memory whole. Stops early when the client has gone.
 */
export async function writeChunk(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', drained);
      res.off('close', closed);
      resolve(ok);
    };
    const drained = () => done(true);
    const closed = () => done(false);
    res.once('drain', drained);
    res.once('close', closed);
  });
}
