import { robotsRulesFor, type RobotsRule } from '../../../core/web/robots-txt.js';
import { getFollowingRedirects } from './follow-redirects.js';
import { readBody } from './read-body.js';
import { discard, type WebClient } from './web-request.js';

/** RFC 9309: a crawler must read at least this much of a robots.txt; the rest may be ignored. */
const ROBOTS_MAX_BYTES = 500 * 1024;

/** What robots.txt lets the crawler read: its rules (none: everything), or why nothing may be read. */
export type RobotsPolicy = { readonly ok: true; readonly rules: readonly RobotsRule[] } | { readonly ok: false; readonly reason: string };

/**
 * The robots.txt of `origin`, as RFC 9309 says to treat it: read (the first 500 KiB) when it answers 2xx; none,
 * so everything allowed, when it answers 4xx (404: the site has none); everything disallowed when it cannot be
 * read (5xx, 429, a network failure, a redirect off the site or past the limit), since a site in trouble may be
 * one that must not be crawled.
 */
export async function loadRobots(client: WebClient, origin: string, productToken: string, signal: AbortSignal): Promise<RobotsPolicy> {
  const url = new URL('/robots.txt', origin);
  const offSite = (next: URL): string | null => (next.origin === origin ? null : `${next.href} is not on the source's site`);
  const got = await getFollowingRedirects(client, url, { accept: 'text/plain,*/*;q=0.5' }, offSite, signal);
  const unreadable = (why: string): RobotsPolicy => ({
    ok: false,
    reason: why === 'cancelled' ? why : `robots.txt of ${origin} could not be read: ${why}; every page counts as disallowed (RFC 9309)`,
  });
  if (!got.ok) return unreadable(got.reason);
  const { response } = got;
  if (response.status >= 400 && response.status < 500 && response.status !== 429) {
    await discard(response);
    return { ok: true, rules: [] };
  }
  if (response.status < 200 || response.status >= 300) {
    await discard(response);
    return unreadable(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  const body = await readBody(response, ROBOTS_MAX_BYTES, got.explain, true);
  if (!body.ok) return unreadable(body.reason);
  return { ok: true, rules: robotsRulesFor(new TextDecoder().decode(body.bytes), productToken) };
}
