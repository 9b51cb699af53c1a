import { sitemapEntries } from '../../../core/web/sitemap-xml.js';
import type { ListedDocument, ListOutcome } from '../connector.js';
import type { PageFetch } from './fetch-page.js';
import { readSitemap } from './read-sitemap.js';
import { pageUrl } from './site-rules.js';
import { count, emptyTally, listingNotes, nothingListed, type Tally } from './sitemap-tally.js';

/** Sitemap indexes nested deeper than this are not read (the protocol allows one level; sites nest a few). */
export const MAX_SITEMAP_DEPTH = 4;
/** Sitemaps read per listing at most, whatever the indexes name. */
export const MAX_SITEMAPS = 1000;

/** Listing a sitemap: how to read it, and which pages to keep. */
export interface SitemapListing extends PageFetch {
  readonly maxPages: number;
  /** Whether a page URL passes the source's include glob; null: every page does. */
  readonly include: ((url: URL) => boolean) | null;
  /** The include glob as given, named in notes. */
  readonly includeGlob: string | null;
}

/**
 * Every page a sitemap names, following sitemap indexes (nested up to MAX_SITEMAP_DEPTH, each sitemap read once):
 * pages on other sites, not matching the include glob or disallowed by robots.txt are left out, and the first
 * `maxPages` kept, each with its `<lastmod>` as version token. Left out pages are counted in the notes.
 * The listing fails as a whole (so that no page is taken for removed) when the sitemap or one of the sitemaps
 * it names cannot be read, unless the site says that one is gone (404, 410), or when no page is left to read.
 */
export async function listSitemap(listing: SitemapListing, root: URL, signal: AbortSignal): Promise<ListOutcome> {
  const { site, maxPages } = listing;
  const documents: ListedDocument[] = [];
  const keys = new Set<string>();
  const tally: Tally = emptyTally();
  const queue = [{ url: root, depth: 0 }];
  const seen = new Set([root.href]);
  let read = 0;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (documents.length >= maxPages || read >= MAX_SITEMAPS) {
      tally.sitemapsNotRead += 1 + queue.length;
      break;
    }
    const sitemap = await readSitemap(listing, next.url, signal);
    read += 1;
    if (!sitemap.ok) {
      if (!sitemap.gone || next.depth === 0) return { ok: false, reason: sitemap.reason };
      tally.goneSitemaps.push(sitemap.reason);
      continue;
    }
    for (const entry of sitemapEntries(sitemap.xml)) {
      if (sitemap.kind === 'urlset' && documents.length >= maxPages) {
        tally.leftOut += 1; // counted, not looked at: a sitemap of 100,000 URLs costs no more than its text
        continue;
      }
      const url = pageUrl(entry.loc, next.url.href);
      if (url === null) count(tally.invalid, entry.loc);
      else if (site.offSite(url) !== null) count(tally.offSite, url.href);
      else if (sitemap.kind === 'sitemapindex') {
        if (seen.has(url.href)) continue;
        seen.add(url.href);
        if (site.disallowed(url) !== null) count(tally.disallowed, url.href);
        else if (next.depth + 1 > MAX_SITEMAP_DEPTH) tally.tooDeep += 1;
        else queue.push({ url, depth: next.depth + 1 });
      } else if (listing.include !== null && !listing.include(url)) count(tally.excluded, url.href);
      else if (site.disallowed(url) !== null) count(tally.disallowed, url.href);
      else if (keys.has(url.href)) continue;
      else {
        keys.add(url.href);
        documents.push({ key: url.href, url: url.href, versionToken: entry.lastmod });
      }
    }
  }
  if (documents.length === 0) return { ok: false, reason: nothingListed(root, tally, listing.includeGlob) };
  return { ok: true, documents, notes: listingNotes(tally, listing) };
}
