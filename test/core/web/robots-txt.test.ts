import { describe, expect, it } from 'vitest';

import { decidingRule, robotsAllow, robotsRulesFor } from '../../../src/core/web/robots-txt.js';

const allows = (text: string, path: string, token = 'CandorBot'): boolean => robotsAllow(robotsRulesFor(text, token), path);

describe('robots.txt groups', () => {
  it('a group naming the crawler (any case, version ignored) wins over *, and * applies when none does', () => {
    const text = ['User-agent: *', 'Disallow: /', '', 'User-agent: candorbot/2.0', 'Disallow: /private/'].join('\n');
    expect(allows(text, '/public/a.html')).toBe(true);
    expect(allows(text, '/private/a.html')).toBe(false);
    expect(allows(text, '/public/a.html', 'OtherBot')).toBe(false);
  });

  it('several user-agent lines share the rules below them, and groups naming the crawler twice are merged', () => {
    const text = [
      'User-agent: a',
      'User-agent: CandorBot',
      'Disallow: /x',
      'User-agent: b',
      'Disallow: /y',
      'User-agent: CandorBot',
      'Disallow: /z',
    ];
    const rules = robotsRulesFor(text.join('\r\n'), 'CandorBot');
    expect(rules.map((r) => r.pattern)).toEqual(['/x', '/z']);
  });

  it('ignores comments, unknown lines, rules before any user-agent, and an empty Disallow', () => {
    const text = [
      'Disallow: /orphan',
      '# all bots',
      'User-agent: * # everyone',
      'Crawl-delay: 5',
      'Disallow:',
      'Sitemap: https://x/sitemap.xml',
    ];
    expect(robotsRulesFor(text.join('\n'), 'CandorBot')).toEqual([]);
    expect(allows(text.join('\n'), '/orphan')).toBe(true);
  });

  it('no robots.txt content and no matching group allow everything', () => {
    expect(allows('', '/anything')).toBe(true);
    expect(allows('User-agent: OtherBot\nDisallow: /', '/anything')).toBe(true);
  });
});

describe('robots.txt rules', () => {
  it('the longest matching pattern decides, and Allow wins a tie', () => {
    const text = [
      'User-agent: *',
      'Disallow: /docs/',
      'Allow: /docs/public/',
      'Disallow: /docs/public/drafts',
      'Allow: /same',
      'Disallow: /same',
    ].join('\n');
    expect(allows(text, '/docs/a')).toBe(false);
    expect(allows(text, '/docs/public/a')).toBe(true);
    expect(allows(text, '/docs/public/drafts/1')).toBe(false);
    expect(allows(text, '/same')).toBe(true);
    expect(decidingRule(robotsRulesFor(text, 'x'), '/docs/public/a')).toEqual({ allow: true, pattern: '/docs/public/' });
  });

  it('* matches any run and $ anchors the end', () => {
    const text = ['User-agent: *', 'Disallow: /*.pdf$', 'Disallow: /tmp*/cache', 'Allow: /$', 'Disallow: /'].join('\n');
    expect(allows(text, '/a/b.pdf')).toBe(false);
    expect(allows(text, '/a/b.pdf?download=1')).toBe(false); // not by "/*.pdf$", by "/"
    expect(allows(text, '/')).toBe(true);
    expect(allows(text, '/index.html')).toBe(false);
    expect(decidingRule(robotsRulesFor(text, 'x'), '/tmp-1/cache/x')?.pattern).toBe('/tmp*/cache');
    const pdfOnly = 'User-agent: *\nDisallow: /*.pdf$';
    expect(allows(pdfOnly, '/a/b.pdf')).toBe(false);
    expect(allows(pdfOnly, '/a/b.pdf?download=1')).toBe(true);
    expect(allows(pdfOnly, '/a/b.pdfx')).toBe(true);
  });

  it('matches the query too, and compares percent-encoding without regard to case or to non-ASCII spelled out', () => {
    const text = ['User-agent: *', 'Disallow: /search?q=', 'Disallow: /café', 'Disallow: /a%2fb'].join('\n');
    expect(allows(text, '/search?q=x')).toBe(false);
    expect(allows(text, '/search')).toBe(true);
    expect(allows(text, '/caf%C3%A9/menu')).toBe(false);
    expect(allows(text, '/caf%c3%a9')).toBe(false);
    expect(allows(text, '/a%2Fb')).toBe(false);
  });

  it('a pattern without a leading slash is read from the root, and /robots.txt itself is always allowed', () => {
    const text = 'User-agent: *\nDisallow: private\nDisallow: /';
    expect(decidingRule(robotsRulesFor(text, 'x'), '/private/1')?.pattern).toBe('/private');
    expect(allows(text, '/robots.txt')).toBe(true);
  });

  it('a pattern full of stars against a long path is decided without backtracking blow-up', () => {
    const text = `User-agent: *\nDisallow: /${'*a'.repeat(40)}b`;
    expect(allows(text, `/${'a'.repeat(5000)}`)).toBe(true);
    expect(allows(text, `/${'a'.repeat(5000)}b`)).toBe(false);
  });
});
