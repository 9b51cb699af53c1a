import { DEFAULT_INGEST_LIMITS } from '../../../config/ingest-limits.js';
import { CandorError } from '../../../kernel/errors.js';
import { packageVersion } from '../../../kernel/version.js';
import type { Connector, ListOutcome } from '../connector.js';
import { fetchPage } from './fetch-page.js';
import { hostPace, type HostPace } from './host-pace.js';
import { listSitemap } from './list-sitemap.js';
import { loadRobots, type RobotsPolicy } from './robots-policy.js';
import { includeMatcher, pageUrl, siteRules, type SiteRules } from './site-rules.js';
import type { WebClient } from './web-request.js';

export interface WebConnectorOptions {
  /** Pages and sitemaps larger than this fail, read no further than the limit (the ingest limit). @default 50 MiB */
  readonly maxFileBytes?: number;
  /** How long one request may take, its body included. @default 30 000 ms */
  readonly timeoutMs?: number;
  /** The least time between the starts of two requests to one host, across list and fetch. @default 250 ms */
  readonly paceMs?: number;
  /** Pages listed from a sitemap at most; the rest are counted in the listing's notes. @default 10 000 */
  readonly maxPages?: number;
  /** Only sitemap pages whose URL matches: "/policies/**", "policies/**\/*.pdf", "https://host/docs/*". @default every page */
  readonly include?: string | null;
  /** Sent with every request; its product token ("CandorBot") is what robots.txt groups are matched against. @default CandorBot/<version> */
  readonly userAgent?: string;
  /** Shared with other connectors to keep their requests to one host apart too. @default one of its own, of `paceMs` */
  readonly pace?: HostPace;
}

export const WEB_CONNECTOR_DEFAULTS = { timeoutMs: 30_000, paceMs: 250, maxPages: 10_000 } as const;

/** A web source: one page, or every page of a sitemap (a URL whose last segment ends in .xml or .xml.gz). */
export type WebSource = { readonly url: URL; readonly kind: 'page' | 'sitemap' };

/** `source` as a web source, or why it is not one (for `sources add` to refuse it). */
export function parseWebSource(source: string): { ok: true; source: WebSource } | { ok: false; reason: string } {
  let raw: URL;
  try {
    raw = new URL(source.trim());
  } catch {
    return { ok: false, reason: `not a URL: ${source}` };
  }
  if (raw.protocol !== 'http:' && raw.protocol !== 'https:') return { ok: false, reason: `not an http(s) URL: ${source}` };
  const url = pageUrl(raw.href);
  if (url === null) return { ok: false, reason: `not a URL a source may name (no user name or password in it): ${source}` };
  return { ok: true, source: { url, kind: /\.xml(\.gz)?$/i.test(url.pathname) ? 'sitemap' : 'page' } };
}

/**
 * The connector of a web source (`parseWebSource`): list() reads the site's robots.txt and then names the page,
 * or every page of the sitemap; fetch() reads one page conditionally. Both stay on the source's site (its
 * origin: scheme, host and port), where robots.txt lets them, at the host's pace. Intranet addresses are
 * allowed: what a source may reach is exactly the site it names. Nothing expected throws: an unreachable host,
 * a timeout, a refusal are outcomes with a one-line reason. Throws CandorError input_invalid for a bad source.
 */
export function createWebConnector(source: string, options: WebConnectorOptions = {}): Connector {
  const parsed = parseWebSource(source);
  if (!parsed.ok) throw new CandorError('input_invalid', parsed.reason, { status: 400 });
  const { url: sourceUrl, kind } = parsed.source;
  const userAgent = options.userAgent ?? `CandorBot/${packageVersion()}`;
  const productToken = userAgent.split(/[\s/]/)[0] || 'CandorBot';
  const client: WebClient = {
    userAgent,
    timeoutMs: options.timeoutMs ?? WEB_CONNECTOR_DEFAULTS.timeoutMs,
    pace: options.pace ?? hostPace(options.paceMs ?? WEB_CONNECTOR_DEFAULTS.paceMs),
  };
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_INGEST_LIMITS.maxFileBytes;
  const origin = sourceUrl.origin;
  let robots: Promise<RobotsPolicy> | null = null;

  /** The site's rules, robots.txt read once per listing (and once before a fetch when nothing was listed). */
  const siteNow = async (signal: AbortSignal, fresh: boolean): Promise<{ ok: true; site: SiteRules } | { ok: false; reason: string }> => {
    if (fresh || robots === null) robots = loadRobots(client, origin, productToken, signal);
    const policy = await robots;
    if (!policy.ok) robots = null; // not kept: the next call asks again
    return policy.ok ? { ok: true, site: siteRules(origin, productToken, policy.rules) } : policy;
  };

  return {
    async list(signal): Promise<ListOutcome> {
      const rules = await siteNow(signal, true);
      if (!rules.ok) return rules;
      const { site } = rules;
      const disallowed = site.disallowed(sourceUrl);
      if (disallowed !== null) return { ok: false, reason: disallowed };
      if (kind === 'page') {
        return { ok: true, documents: [{ key: sourceUrl.href, url: sourceUrl.href, versionToken: null }], notes: [] };
      }
      const includeGlob = options.include ?? null;
      const include = includeGlob === null ? null : includeMatcher(includeGlob);
      const maxPages = options.maxPages ?? WEB_CONNECTOR_DEFAULTS.maxPages;
      return listSitemap({ client, site, maxFileBytes, maxPages, include, includeGlob }, sourceUrl, signal);
    },

    async fetch(document, previous, signal) {
      const rules = await siteNow(signal, false);
      if (!rules.ok) return { kind: 'failed', reason: rules.reason };
      return fetchPage({ client, site: rules.site, maxFileBytes }, document, previous, signal);
    },
  };
}
