import { pageUrl } from './site-rules.js';
import { discard, getOnce, type WebClient } from './web-request.js';

/** Redirects followed for one document, as browsers and crawlers commonly allow (Google follows 5 for robots.txt). */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The final response and where it came from, or why there is none, in one line. */
export type Followed =
  | { readonly ok: true; readonly response: Response; readonly url: URL; readonly explain: (error: unknown) => string }
  | { readonly ok: false; readonly reason: string };

/**
 * GET `start`, following redirects by hand: at most MAX_REDIRECTS, never in a loop, and only to where `refuse`
 * has nothing against (the source's own site, what robots.txt allows there). The final response's body is the
 * caller's to read or discard; the bodies of redirects are let go.
 */
export async function getFollowingRedirects(
  client: WebClient,
  start: URL,
  headers: Readonly<Record<string, string>>,
  refuse: (url: URL) => string | null,
  signal: AbortSignal,
): Promise<Followed> {
  const chain = [start.href];
  let url = start;
  for (;;) {
    const reply = await getOnce(client, url, headers, signal);
    if (!reply.ok) return reply;
    const { response } = reply;
    if (!REDIRECTS.has(response.status)) return { ok: true, response, url, explain: reply.explain };
    await discard(response);
    const location = response.headers.get('location');
    const next = location === null ? null : pageUrl(location, url.href);
    if (next === null) return { ok: false, reason: `HTTP ${response.status} redirect without a usable Location (${location ?? 'none'})` };
    if (chain.includes(next.href)) return { ok: false, reason: `redirect loop: ${[...chain, next.href].join(' → ')}` };
    if (chain.length > MAX_REDIRECTS) return { ok: false, reason: `more than ${MAX_REDIRECTS} redirects from ${start.href}` };
    const refused = refuse(next);
    if (refused !== null) return { ok: false, reason: `redirected from ${url.href}: ${refused}` };
    chain.push(next.href);
    url = next;
  }
}
