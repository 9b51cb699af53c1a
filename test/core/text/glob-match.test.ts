import { describe, expect, it } from 'vitest';

import { globMatcher } from '../../../src/core/text/glob-match.js';

const matches = (glob: string, path: string): boolean => globMatcher(glob)(path);

describe('globMatcher', () => {
  it('* and ? stay within a segment; the whole path must match', () => {
    expect(matches('docs/*.html', 'docs/a.html')).toBe(true);
    expect(matches('docs/*.html', 'docs/sub/a.html')).toBe(false);
    expect(matches('docs/?.md', 'docs/a.md')).toBe(true);
    expect(matches('docs/?.md', 'docs/ab.md')).toBe(false);
    expect(matches('docs/*.html', 'x/docs/a.html')).toBe(false);
  });

  it('** as a segment spans any number of segments, none included', () => {
    expect(matches('**/*.pdf', 'a.pdf')).toBe(true);
    expect(matches('**/*.pdf', 'a/b/c.pdf')).toBe(true);
    expect(matches('policies/**', 'policies')).toBe(true);
    expect(matches('policies/**', 'policies/hr/leave.html')).toBe(true);
    expect(matches('policies/**', 'policiesx/a')).toBe(false);
    expect(matches('/a/**/z.md', '/a/z.md')).toBe(true);
    expect(matches('/a/**/z.md', '/a/b/c/z.md')).toBe(true);
  });

  it('alternatives and classes', () => {
    expect(matches('**/*.{pdf,docx}', 'x/y.docx')).toBe(true);
    expect(matches('**/*.{pdf,docx}', 'x/y.doc')).toBe(false);
    expect(matches('v[0-9].md', 'v7.md')).toBe(true);
    expect(matches('v[!0-9].md', 'v7.md')).toBe(false);
    expect(matches('v[!0-9].md', 'vx.md')).toBe(true);
  });

  it('everything else is literal: dots, parentheses, plus, dollar, hyphen', () => {
    expect(matches('a.(b)+$-c', 'a.(b)+$-c')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
    expect(matches('https://host/docs/*', 'https://host/docs/a')).toBe(true);
    expect(matches('{unclosed', '{unclosed')).toBe(true);
    expect(matches('[z-a].md', '[z-a].md')).toBe(true);
    expect(matches('[unclosed', '[unclosed')).toBe(true);
  });
});
