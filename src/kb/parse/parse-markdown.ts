import MarkdownIt, { type Token } from 'markdown-it';

import { addTable, FactCollector, HeadingStack } from './facts.js';
import { inlineText } from './markdown-inline.js';
import { parseHtml } from './parse-html.js';
import type { ParsedDocument } from './types.js';

/** CommonMark plus GFM tables and strikethrough; raw HTML allowed (its text is read by the HTML parser). */
const markdown = new MarkdownIt('default', { html: true, linkify: false, typographer: false });
const TASK_MARKER = /^\[[ xX]\][ \t]+/;

/**
 * Markdown, read by markdown-it (CommonMark): ATX and setext headings build the
 * heading path (the first H1 is the title), paragraphs are split into
 * sentences, each list item is one fact (its later paragraphs are sentences),
 * each table body row is one "Header: value; …" fact, HTML blocks go through
 * the HTML parser. Front matter, fenced and indented code, and link reference
 * definitions are not facts.
 */
export function parseMarkdown(content: string): ParsedDocument {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const tokens = markdown.parse(lines.slice(frontMatterEnd(lines)).join('\n'), {});
  const facts = new FactCollector();
  const headings = new HeadingStack();
  let title: string | null = null;
  /** Per open list item: whether its first paragraph (the item's own fact) has been taken. */
  const items: boolean[] = [];
  let table: { headers: string[]; rows: string[][]; inHead: boolean } | null = null;

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    switch (token.type) {
      case 'heading_open': {
        const text = inlineText(tokens[i + 1]);
        const level = Number(token.tag.slice(1));
        headings.push(level, text);
        if (level === 1 && title === null && text.trim() !== '') title = text;
        i += 2;
        break;
      }
      case 'list_item_open':
        items.push(false);
        break;
      case 'list_item_close':
        items.pop();
        break;
      case 'inline': {
        if (table !== null) break; // cells are read at th/td
        const text = inlineText(token);
        if (items.length > 0 && items[items.length - 1] === false) {
          items[items.length - 1] = true;
          facts.addFact(text.replace(TASK_MARKER, ''), headings.path);
        } else {
          facts.addParagraph(text, headings.path);
        }
        break;
      }
      case 'table_open':
        table = { headers: [], rows: [], inHead: false };
        break;
      case 'thead_open':
      case 'thead_close':
        if (table !== null) table.inHead = token.type === 'thead_open';
        break;
      case 'tr_open':
        if (table !== null && !table.inHead) table.rows.push([]);
        break;
      case 'th_open':
      case 'td_open': {
        const cell = inlineText(tokens[i + 1]);
        if (table?.inHead) table.headers.push(cell);
        else table?.rows[table.rows.length - 1]?.push(cell);
        break;
      }
      case 'table_close':
        if (table !== null) addTable(facts, table.headers, table.rows, headings.path);
        table = null;
        break;
      case 'html_block':
        for (const fact of parseHtml(token.content).facts) facts.addFact(fact.text, headings.path, { row: fact.row === true });
        break;
      default:
        break; // fence, code_block, hr, blockquote and list wrappers carry no text of their own
    }
  }
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
