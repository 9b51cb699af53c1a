import { httpUrl } from '../../core/text/http-url.js';
import { addTable, FactCollector, HeadingStack } from './facts.js';
import { tokenizeHtml } from './html-tokenizer.js';
import { normaliseWhitespace } from './normalise.js';
import type { ParsedDocument } from './types.js';

/** Elements whose content is not document text (head is left when <body> opens, for pages that never close it). */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'canvas', 'textarea']);
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr', 'area', 'base', 'col', 'embed', 'source', 'track', 'param']);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'ul',
  'option',
  'tr',
  'td',
  'th',
  'caption',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
/** Opening one of these implicitly closes an open element of the same kind within the same parent list. */
const SELF_CLOSING_SIBLINGS: Record<string, readonly string[]> = { li: ['ul', 'ol', 'menu'], dt: ['dl'], dd: ['dl'], p: [] };
const HEADING = /^h([1-6])$/;

interface Row {
  cells: string[];
  isHeader: boolean[];
}
interface Table {
  rows: Row[];
  cell: string | null;
  cellIsHeader: boolean;
  inHead: boolean;
  caption: string | null;
}

/**
 * HTML: script/style/head… content is dropped (the <title> is the title, else
 * the first h1), h1–h6 build the heading path, block elements separate text,
 * inline elements join it, an li is one fact, other blocks are split into
 * sentences, and each table row is one "Header: value; …" fact. The page's
 * URL is its <link rel="canonical">, else its og:url (http(s) only, relative
 * ones resolved against <base href>).
 */
export function parseHtml(content: string): ParsedDocument {
  const facts = new FactCollector();
  const headings = new HeadingStack();
  const blocks: string[] = [];
  const skipping: string[] = [];
  const tables: Table[] = [];
  let title: string | null = null;
  let firstH1: string | null = null;
  let inTitle = false;
  let heading: { level: number; text: string } | null = null;
  let buffer = '';
  const links: { base?: string; canonical?: string; og?: string } = {};

  const flush = (): void => {
    const text = normaliseWhitespace(buffer);
    buffer = '';
    if (text === '') return;
    if (blocks[blocks.length - 1] === 'li') facts.addFact(text, headings.path);
    else facts.addParagraph(text, headings.path);
  };
  const closeCell = (table: Table): void => {
    if (table.cell === null) return;
    if (table.rows.length === 0) table.rows.push({ cells: [], isHeader: [] });
    const row = table.rows[table.rows.length - 1]!;
    row.cells.push(table.cell);
    row.isHeader.push(table.cellIsHeader);
    table.cell = null;
  };
  const write = (text: string): void => {
    const table = tables[tables.length - 1];
    if (heading !== null) heading.text += text;
    else if (table?.cell != null) table.cell += text;
    else if (table?.caption != null) table.caption += text;
    else buffer += text;
  };

  for (const token of tokenizeHtml(content)) {
    if (token.kind === 'text') {
      if (inTitle) title ??= normaliseWhitespace(token.text) || null;
      else if (skipping.length === 0) write(token.text);
      continue;
    }
    const { name } = token;
    if (token.kind === 'open') noteLink(links, name, token.attributes);
    if (token.kind === 'open' && name === 'body') skipping.length = 0;
    if (name === 'title') inTitle = token.kind === 'open' && skipping.every((skipped) => skipped === 'head');
    if (SKIPPED.has(name)) {
      if (token.kind === 'open' && !token.selfClosing) skipping.push(name);
      else if (token.kind === 'close' && skipping.includes(name)) skipping.length = skipping.lastIndexOf(name);
      continue;
    }
    if (skipping.length > 0) continue;
    const table = tables[tables.length - 1];
    if (name === 'br') {
      write(' ');
    } else if (!BLOCK.has(name)) {
      continue; // inline element: its text joins the surrounding text
    } else if (token.kind === 'open' && name === 'table') {
      if (table === undefined) flush();
      tables.push({ rows: [], cell: null, cellIsHeader: false, inHead: false, caption: null });
    } else if (token.kind === 'close' && name === 'table' && table !== undefined) {
      closeCell(table);
      tables.pop();
      emitTable(facts, table, headings.path);
    } else if (table !== undefined && token.kind === 'open' && (name === 'td' || name === 'th')) {
      closeCell(table);
      table.cell = '';
      table.cellIsHeader = name === 'th' || table.inHead;
    } else if (table !== undefined && name === 'tr') {
      closeCell(table);
      if (token.kind === 'open') table.rows.push({ cells: [], isHeader: [] });
    } else if (table !== undefined && (name === 'thead' || name === 'caption')) {
      closeCell(table);
      if (name === 'thead') table.inHead = token.kind === 'open';
      else if (token.kind === 'open') table.caption = '';
      else if (table.caption !== null) {
        facts.addParagraph(table.caption, headings.path);
        table.caption = null;
      }
    } else if (table?.cell != null) {
      table.cell += ' '; // a block inside a cell only separates words
    } else if (HEADING.test(name) && table === undefined) {
      const level = Number(HEADING.exec(name)![1]);
      if (token.kind === 'open') {
        flush();
        if (heading !== null) headings.push(heading.level, heading.text); // an unclosed previous heading
        heading = { level, text: '' };
      } else if (heading !== null) {
        headings.push(heading.level, heading.text);
        if (heading.level === 1 && firstH1 === null) firstH1 = normaliseWhitespace(heading.text) || null;
        heading = null;
      }
    } else if (table === undefined) {
      flush();
      if (token.kind === 'open' && !VOID.has(name)) openBlock(blocks, name);
      else if (token.kind === 'close' && blocks.includes(name)) blocks.length = blocks.lastIndexOf(name);
    }
  }
  if (heading !== null) headings.push(heading.level, heading.text);
  flush();
  const base = httpUrl(links.base);
  const url = httpUrl(links.canonical, base) ?? httpUrl(links.og, base);
  return url === null ? facts.result(title ?? firstH1) : { ...facts.result(title ?? firstH1), url };
}

/** The first <base href>, <link rel="canonical" href> and og:url <meta> of the page. */
function noteLink(
  links: { base?: string; canonical?: string; og?: string },
  name: string,
  attributes: Readonly<Record<string, string>>,
): void {
  if (name === 'base') links.base ??= attributes.href;
  else if (name === 'link' && /(?:^|\s)canonical(?:\s|$)/i.test(attributes.rel ?? '')) links.canonical ??= attributes.href;
  else if (name === 'meta' && (attributes.property ?? attributes.name)?.toLowerCase() === 'og:url') links.og ??= attributes.content;
}

function openBlock(blocks: string[], name: string): void {
  const parents = SELF_CLOSING_SIBLINGS[name];
  if (parents !== undefined) {
    const sibling = blocks.lastIndexOf(name);
    const parent = Math.max(-1, ...parents.map((p) => blocks.lastIndexOf(p)));
    if (sibling > parent && (name !== 'p' || sibling === blocks.length - 1)) blocks.length = sibling;
  }
  blocks.push(name);
}

/** The first all-header row (or, failing that, the first row) labels every other row. */
function emitTable(facts: FactCollector, table: Table, heading: string | null): void {
  const rows = table.rows.filter((row) => row.cells.length > 0);
  if (rows.length === 0) return;
  const headerAt = Math.max(
    0,
    rows.findIndex((row) => row.isHeader.every(Boolean)),
  );
  const headers = rows[headerAt]?.cells ?? [];
  const body = rows.filter((_, index) => index !== headerAt).map((row) => row.cells);
  addTable(facts, headers, body, heading);
}
