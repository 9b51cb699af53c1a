/**
 * Sitemaps (sitemaps.org) read tolerantly: a `<urlset>` of `<url>` entries or a `<sitemapindex>` of `<sitemap>`
 * entries, each with a `<loc>` and an optional `<lastmod>`. Namespace prefixes, attributes, comments, CDATA,
 * the five XML entities and numeric character references are understood; anything else is skipped, never
 * refused. One pass over the text, entries yielded as they are met, so a sitemap of 100,000 URLs costs only what
 * its reader keeps. Pure.
 */

export type SitemapKind = 'urlset' | 'sitemapindex';

/** One `<url>` of a urlset or `<sitemap>` of an index. */
export interface SitemapEntry {
  /** The `<loc>`, trimmed, as written (possibly not a URL at all). */
  readonly loc: string;
  /** The `<lastmod>`, trimmed, or null. */
  readonly lastmod: string | null;
}

type XmlToken =
  | { readonly kind: 'open' | 'close'; readonly name: string }
  /** Text from `start` to `end`, CDATA (taken as it is) or not (its references to decode). */
  | { readonly kind: 'text'; readonly start: number; readonly end: number; readonly cdata: boolean };

/** What the document is, by its root element; null for anything else (an HTML page, a feed, garbage). */
export function sitemapKind(xml: string): SitemapKind | null {
  for (const token of xmlTokens(xml)) {
    if (token.kind !== 'open') continue;
    return token.name === 'urlset' || token.name === 'sitemapindex' ? token.name : null;
  }
  return null;
}

/**
 * The entries of a urlset or an index, in document order; entries without a `<loc>` are skipped. Only an
 * entry's own `<loc>` and `<lastmod>` count, not those of extensions nested in it (an image sitemap's
 * `<image:image><image:loc>`).
 */
export function* sitemapEntries(xml: string): Generator<SitemapEntry> {
  let entry: { loc: string; lastmod: string | null } | null = null;
  let depth = 0; // elements open inside the entry
  let field: 'loc' | 'lastmod' | null = null;
  for (const token of xmlTokens(xml)) {
    if (token.kind === 'text') {
      if (entry !== null && field !== null) entry[field] = (entry[field] ?? '') + textOf(xml, token);
    } else if (token.kind === 'open' && (token.name === 'url' || token.name === 'sitemap')) {
      entry = { loc: '', lastmod: null };
      depth = 0;
      field = null;
    } else if (token.kind === 'close' && (token.name === 'url' || token.name === 'sitemap')) {
      if (entry !== null && entry.loc.trim() !== '') yield { loc: entry.loc.trim(), lastmod: entry.lastmod?.trim() || null };
      entry = null;
    } else if (entry !== null && token.kind === 'open') {
      depth += 1;
      field = depth === 1 && (token.name === 'loc' || token.name === 'lastmod') ? token.name : null;
    } else if (entry !== null) {
      depth = Math.max(0, depth - 1);
      field = null;
    }
  }
}

/**
 * The elements (local names, lower case) and text of an XML document. A self-closing element is an open token
 * followed by its close; processing instructions, doctypes and comments are dropped; CDATA is text as it is.
 */
function* xmlTokens(xml: string): Generator<XmlToken> {
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt === -1) {
      yield { kind: 'text', start: at, end: xml.length, cdata: false };
      return;
    }
    if (lt > at) yield { kind: 'text', start: at, end: lt, cdata: false };
    if (xml.startsWith('<!--', lt)) {
      at = endOf(xml, '-->', lt + 4);
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      yield { kind: 'text', start: lt + 9, end: end === -1 ? xml.length : end, cdata: true };
      at = end === -1 ? xml.length : end + 3;
    } else {
      const gt = xml.indexOf('>', lt + 1);
      if (gt === -1) return;
      at = gt + 1;
      const tag = xml.slice(lt + 1, gt);
      if (tag.startsWith('?') || tag.startsWith('!')) continue;
      const name = /^\/?\s*([^\s/>]+)/.exec(tag)?.[1];
      if (name === undefined) continue;
      const local = (name.slice(name.lastIndexOf(':') + 1) || name).toLowerCase();
      if (tag.startsWith('/')) {
        yield { kind: 'close', name: local };
      } else {
        yield { kind: 'open', name: local };
        if (tag.endsWith('/')) yield { kind: 'close', name: local };
      }
    }
  }
}

function textOf(xml: string, token: { start: number; end: number; cdata: boolean }): string {
  const text = xml.slice(token.start, token.end);
  return token.cdata ? text : decodeEntities(text);
}

function endOf(xml: string, marker: string, from: number): number {
  const end = xml.indexOf(marker, from);
  return end === -1 ? xml.length : end + marker.length;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The five XML entities and numeric references decoded; any other `&…;` kept as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
