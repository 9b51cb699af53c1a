import { addTable, FactCollector, HeadingStack } from './facts.js';
import { stripInlineMarkdown } from './markdown-inline.js';
import type { ParsedDocument } from './types.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\][ \t]+)?/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S/;
const BLOCKQUOTE = /^ {0,3}(?:>[ \t]?)+/;

/**
 * Markdown: ATX and setext headings build the heading path (the first H1 is the
 * title), paragraphs are split into sentences, each list item is one fact, each
 * table body row is one "Header: value; …" fact; front matter, fenced code and
 * link reference definitions are skipped.
 */
export function parseMarkdown(content: string): ParsedDocument {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const facts = new FactCollector();
  const headings = new HeadingStack();
  let title: string | null = null;
  let paragraph: string[] = [];
  let item: string | null = null;
  let table: { headers: string[]; rows: string[][] } | null = null;
  let fence: string | null = null;

  const flush = (): void => {
    if (paragraph.length > 0) facts.addParagraph(stripInlineMarkdown(paragraph.join(' ')), headings.path);
    if (item !== null) facts.addFact(stripInlineMarkdown(item), headings.path);
    if (table !== null) addTable(facts, table.headers, table.rows, headings.path);
    paragraph = [];
    item = null;
    table = null;
  };
  const setHeading = (level: number, raw: string): void => {
    const text = stripInlineMarkdown(raw);
    headings.push(level, text);
    if (level === 1 && title === null && text.trim() !== '') title = text;
  };

  for (let i = frontMatterEnd(lines); i < lines.length; i++) {
    const original = lines[i] ?? '';
    if (fence !== null) {
      const close = FENCE.exec(original);
      if (close !== null && close[1]![0] === fence[0] && close[1]!.length >= fence.length && original.trim() === close[1]) fence = null;
      continue;
    }
    const opening = FENCE.exec(original);
    if (opening !== null) {
      flush();
      fence = opening[1]!;
      continue;
    }
    const line = original.replace(BLOCKQUOTE, '');
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (table !== null) {
      if (line.includes('|')) {
        table.rows.push(tableCells(line));
        continue;
      }
      flush();
    }
    const atx = ATX_HEADING.exec(line);
    if (atx !== null) {
      flush();
      setHeading(atx[1]!.length, atx[2] ?? '');
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline !== null && paragraph.length > 0 && item === null) {
      const text = paragraph.join(' ');
      paragraph = [];
      setHeading(underline[1]!.startsWith('=') ? 1 : 2, text);
      continue;
    }
    if (THEMATIC_BREAK.test(line) || (REFERENCE_DEFINITION.test(line) && paragraph.length === 0)) {
      flush();
      continue;
    }
    if (line.includes('|') && TABLE_DELIMITER.test(lines[i + 1] ?? '') && (lines[i + 1] ?? '').includes('-')) {
      flush();
      table = { headers: tableCells(line), rows: [] };
      i++;
      continue;
    }
    const marker = LIST_ITEM.exec(line);
    if (marker !== null) {
      flush();
      item = line.slice(marker[0].length);
    } else if (item !== null) {
      item = `${item} ${line.trim()}`;
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return facts.result(title);
}

/** Index of the first line after a leading "---" … "---" (or "...") front-matter block, else 0. */
function frontMatterEnd(lines: readonly string[]): number {
  if ((lines[0] ?? '').trim() !== '---') return 0;
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '---' || line === '...') return i + 1;
  }
  return 0;
}

function tableCells(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => stripInlineMarkdown(cell.replace(/\\\|/g, '|')));
}
