import { describe, expect, it } from 'vitest';

import { sitemapEntries, sitemapKind } from '../../../src/core/web/sitemap-xml.js';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://intranet.example/a.html</loc><lastmod>2026-01-02</lastmod><priority>0.5</priority></url>
  <url>
    <loc>
      https://intranet.example/b?x=1&amp;y=2
    </loc>
  </url>
</urlset>`;

describe('sitemapKind', () => {
  it('tells a urlset from an index by the root element, prefix and case aside', () => {
    expect(sitemapKind(URLSET)).toBe('urlset');
    expect(sitemapKind('<?xml version="1.0"?><!DOCTYPE x><sm:sitemapindex xmlns:sm="…"></sm:sitemapindex>')).toBe('sitemapindex');
    expect(sitemapKind('<URLSET/>')).toBe('urlset');
  });

  it('is null for an HTML page, a feed, text or nothing', () => {
    expect(sitemapKind('<!doctype html><html><body><a href="/x">x</a></body></html>')).toBeNull();
    expect(sitemapKind('<rss version="2.0"><channel/></rss>')).toBeNull();
    expect(sitemapKind('https://intranet.example/a\n')).toBeNull();
    expect(sitemapKind('')).toBeNull();
  });
});

describe('sitemapEntries', () => {
  it('yields each <loc> trimmed and entity-decoded, with its <lastmod> or null', () => {
    expect([...sitemapEntries(URLSET)]).toEqual([
      { loc: 'https://intranet.example/a.html', lastmod: '2026-01-02' },
      { loc: 'https://intranet.example/b?x=1&y=2', lastmod: null },
    ]);
  });

  it('reads an index’s <sitemap> entries, namespace prefixes, CDATA and numeric references', () => {
    const index = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:sitemap><sm:loc><![CDATA[https://x.example/s1.xml?a=1&b=2]]></sm:loc><sm:lastmod>2026-03-04T05:06:07Z</sm:lastmod></sm:sitemap>
      <sm:sitemap><sm:loc>https://x.example/caf&#xE9;&#47;s2.xml</sm:loc></sm:sitemap>
    </sm:sitemapindex>`;
    expect([...sitemapEntries(index)]).toEqual([
      { loc: 'https://x.example/s1.xml?a=1&b=2', lastmod: '2026-03-04T05:06:07Z' },
      { loc: 'https://x.example/café/s2.xml', lastmod: null },
    ]);
  });

  it('skips entries without a <loc>, a <loc> outside an entry, commented-out entries, and the <loc> of an extension inside an entry', () => {
    const xml = `<urlset><loc>https://x.example/stray</loc>
      <url><lastmod>2026-01-01</lastmod></url>
      <!-- <url><loc>https://x.example/commented</loc></url> -->
      <url><image:image><image:loc>https://x.example/pic.png</image:loc></image:image><loc>https://x.example/kept</loc></url>
    </urlset>`;
    expect([...sitemapEntries(xml)].map((e) => e.loc)).toEqual(['https://x.example/kept']);
  });

  it('tolerates a truncated document: the complete entries before the cut are read', () => {
    const cut = URLSET.slice(0, URLSET.indexOf('<url>\n'));
    expect([...sitemapEntries(`${cut}<url><loc>https://x.example/half`)]).toEqual([
      { loc: 'https://intranet.example/a.html', lastmod: '2026-01-02' },
    ]);
  });

  it('reads 100,000 entries lazily: taking the first few reads no further', () => {
    const big = `<urlset>${Array.from({ length: 100_000 }, (_, i) => `<url><loc>https://x.example/p/${i}</loc></url>`).join('\n')}</urlset>`;
    const first: string[] = [];
    for (const entry of sitemapEntries(big)) {
      first.push(entry.loc);
      if (first.length === 3) break;
    }
    expect(first).toEqual(['https://x.example/p/0', 'https://x.example/p/1', 'https://x.example/p/2']);
    let count = 0;
    for (const _ of sitemapEntries(big)) count += 1;
    expect(count).toBe(100_000);
  });
});
