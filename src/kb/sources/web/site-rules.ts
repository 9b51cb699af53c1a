import { globMatcher } from '../../../core/text/glob-match.js';
import { httpUrl } from '../../../core/text/http-url.js';
import { decidingRule, type RobotsRule } from '../../../core/web/robots-txt.js';

/** What a web source may read: its own site (the origin it names), and there what robots.txt allows. */
export interface SiteRules {
  readonly origin: string;
  /** Why `url` is outside the source's site, or null when it is inside. */
  offSite(url: URL): string | null;
  /** Why robots.txt keeps the crawler from `url`, or null when it may read it. */
  disallowed(url: URL): string | null;
}

/** The rules of the site at `origin` for the crawler `productToken`, under the robots.txt `rules` read there. */
export function siteRules(origin: string, productToken: string, rules: readonly RobotsRule[]): SiteRules {
  return {
    origin,
    offSite(url) {
      if (url.origin === origin) return null;
      const moved =
        url.hostname === new URL(origin).hostname ? `; if the site moved to ${url.origin}, name that address as the source` : '';
      return `${url.href} is not on the source's site (a source reads only ${origin}${moved})`;
    },
    disallowed(url) {
      if (url.pathname === '/robots.txt') return null;
      const rule = decidingRule(rules, `${url.pathname}${url.search}`);
      if (rule === null || rule.allow) return null;
      return `robots.txt of ${origin} disallows ${url.pathname}${url.search} for ${productToken} (Disallow: ${rule.pattern})`;
    },
  };
}

/** Why `url` may not be requested (off the site, or disallowed), or null. */
export function refusal(site: SiteRules, url: URL): string | null {
  return site.offSite(url) ?? site.disallowed(url);
}

/** An absolute http(s) URL without its fragment (a page's identity), resolved against `base`; null when `value` is none. */
export function pageUrl(value: string, base?: string): URL | null {
  const href = httpUrl(value, base);
  if (href === null) return null;
  const url = new URL(href);
  url.hash = '';
  return url;
}

/**
 * A test of page URLs against an include glob: a glob naming a scheme ("https://intranet/policies/**") is matched
 * against the whole URL; one starting with "/" against the URL's path ("/policies/**"); any other against the path
 * without its first "/" ("policies/**", "**\/*.pdf"), as a folder's glob is matched against paths below it. Paths
 * are matched decoded ("/HR Policies/…", not "/HR%20Policies/…").
 */
export function includeMatcher(glob: string): (url: URL) => boolean {
  const matches = globMatcher(glob);
  if (glob.includes('://')) return (url) => matches(url.href) || matches(decoded(url.href));
  if (glob.startsWith('/')) return (url) => matches(decoded(url.pathname));
  return (url) => matches(decoded(url.pathname).slice(1));
}

function decoded(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
