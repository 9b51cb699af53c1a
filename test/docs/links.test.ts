import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt, { type Token } from 'markdown-it';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** As GitHub renders it: CommonMark, GFM tables, raw HTML. */
const markdown = new MarkdownIt('default', { html: true });

/** The pages a reader follows links through: the README, CONTRIBUTING and every page under docs/. */
function pages(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? docs(path) : name.endsWith('.md') ? [path] : [];
    });
  return [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...docs(join(ROOT, 'docs'))];
}

/** Every link and image target of a page: Markdown links and images, and href/src of raw HTML (never inside code). */
function targets(text: string): string[] {
  const found: string[] = [];
  const visit = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link_open') found.push(String(token.attrGet('href') ?? ''));
      if (token.type === 'image') found.push(String(token.attrGet('src') ?? ''));
      if (token.type === 'html_block' || token.type === 'html_inline')
        for (const match of token.content.matchAll(/\b(?:href|src)="([^"]*)"/g)) found.push(match[1] ?? '');
      if (token.children) visit(token.children);
    }
  };
  visit(markdown.parse(text, {}));
  return found;
}

/**
 * The anchors GitHub gives a page's headings (github-slugger): the heading's text as rendered, lower-cased,
 * every character but letters, marks, digits, connector punctuation, spaces and hyphens dropped, spaces made
 * hyphens; a repeated slug gets -1, -2, …. Explicit `<a id>`/`<a name>` anchors count too.
 */
function anchors(text: string): Set<string> {
  const tokens = markdown.parse(text, {});
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open') {
      const rendered = (tokens[i + 1]?.children ?? [])
        .filter((c) => c.type === 'text' || c.type === 'code_inline')
        .map((c) => c.content)
        .join('');
      const base = rendered
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      slugs.add(n === 0 ? base : `${base}-${n}`);
    }
    if (token.type === 'html_block' || token.type === 'html_inline')
      for (const match of token.content.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) slugs.add(match[1] ?? '');
  });
  return slugs;
}

/** What is wrong with one relative link from `page`, or null when it resolves (outside links are not followed). */
function broken(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:, …
  const [pathPart = '', anchor] = target.split('#', 2);
  const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
  const file = path === '' ? page : resolve(dirname(page), path);
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined) return null;
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  return anchors(readFileSync(file, 'utf8')).has(anchor) ? null : `${target}: no heading with that anchor`;
}

describe('links in the README and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages().length).toBeGreaterThan(10);
    expect(targets('[a](b.md#c) ![i](img.png) `[not](code)` <img src="x.png">')).toEqual(['b.md#c', 'img.png', 'x.png']);
  });

  it('slugs headings as GitHub does', () => {
    const slugs = anchors('# Calibrating a KB: `candor eval calibrate`\n## Three tiers: answer, answer — refuse\n## Dup\n## Dup\n');
    expect([...slugs]).toEqual(['calibrating-a-kb-candor-eval-calibrate', 'three-tiers-answer-answer--refuse', 'dup', 'dup-1']);
  });

  for (const page of pages()) {
    it(`every relative link and anchor in ${relative(ROOT, page)} resolves`, () => {
      const text = readFileSync(page, 'utf8');
      expect(targets(text).flatMap((target) => broken(page, target) ?? [])).toEqual([]);
    });
  }
});
