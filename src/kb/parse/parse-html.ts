import { httpUrl } from '../../core/text/http-url.js';
import { addTable, FactCollector, HeadingStack } from './facts.js';
import { tokenizeHtml, type HtmlToken } from './html-tokenizer.js';
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
  const page = new HtmlPageReader();
  for (const token of tokenizeHtml(content)) {
    if (token.kind === 'text') page.text(token.text);
    else page.tag(token);
  }
  return page.result();
}

type HtmlTag = Exclude<HtmlToken, { kind: 'text' }>;
type PageLinks = { base?: string; canonical?: string; og?: string };

/** A page read token by token: its facts so far, and where the reader is (skipped content, open blocks, tables, heading). */
class HtmlPageReader {
  private readonly facts = new FactCollector();
  private readonly headings = new HeadingStack();
  private readonly blocks: string[] = [];
  private readonly skipping: string[] = [];
  private readonly tables: Table[] = [];
  private title: string | null = null;
  private firstH1: string | null = null;
  private inTitle = false;
  private heading: { level: number; text: string } | null = null;
  private buffer = '';
  private readonly links: PageLinks = {};

  text(text: string): void {
    if (this.inTitle) this.title ??= normaliseWhitespace(text) || null;
    else if (this.skipping.length === 0) this.write(text);
  }

  /** An opening or closing tag: skipped content, the title and links are noted first; then what the element does to the text. */
  tag(token: HtmlTag): void {
    const { name } = token;
    const skipping = this.skipping;
    if (token.kind === 'open') noteLink(this.links, name, token.attributes);
    if (token.kind === 'open' && name === 'body') skipping.length = 0;
    if (name === 'title') this.inTitle = token.kind === 'open' && skipping.every((skipped) => skipped === 'head');
    if (SKIPPED.has(name)) {
      if (token.kind === 'open' && !token.selfClosing) skipping.push(name);
      else if (token.kind === 'close' && skipping.includes(name)) skipping.length = skipping.lastIndexOf(name);
      return;
    }
    if (skipping.length > 0) return;
    if (name === 'br') return this.write(' ');
    if (!BLOCK.has(name)) return; // inline element: its text joins the surrounding text
    const table = this.tables[this.tables.length - 1];
    if (token.kind === 'open' && name === 'table') {
      if (table === undefined) this.flush();
      this.tables.push({ rows: [], cell: null, cellIsHeader: false, inHead: false, caption: null });
    } else if (table !== undefined) this.tableTag(table, token);
    else if (HEADING.test(name)) this.headingTag(token);
    else this.blockTag(token);
  }

  result(): ParsedDocument {
    if (this.heading !== null) this.headings.push(this.heading.level, this.heading.text);
    this.flush();
    const base = httpUrl(this.links.base);
    const url = httpUrl(this.links.canonical, base) ?? httpUrl(this.links.og, base);
    const title = this.title ?? this.firstH1;
    return url === null ? this.facts.result(title) : { ...this.facts.result(title), url };
  }

  /** A block element inside a table (the innermost): cells, rows, the header part and the caption; other blocks only separate words. */
  private tableTag(table: Table, token: HtmlTag): void {
    const { name } = token;
    if (token.kind === 'close' && name === 'table') {
      closeCell(table);
      this.tables.pop();
      emitTable(this.facts, table, this.headings.path);
    } else if (token.kind === 'open' && (name === 'td' || name === 'th')) {
      closeCell(table);
      table.cell = '';
      table.cellIsHeader = name === 'th' || table.inHead;
    } else if (name === 'tr') {
      closeCell(table);
      if (token.kind === 'open') table.rows.push({ cells: [], isHeader: [] });
    } else if (name === 'thead' || name === 'caption') {
      closeCell(table);
      if (name === 'thead') table.inHead = token.kind === 'open';
      else if (token.kind === 'open') table.caption = '';
      else if (table.caption !== null) {
        this.facts.addParagraph(table.caption, this.headings.path);
        table.caption = null;
      }
    } else if (table.cell != null) {
      table.cell += ' '; // a block inside a cell only separates words
    }
  }

  /** h1–h6 outside tables: the heading's text joins the heading path when it closes (or when the next one opens). */
  private headingTag(token: HtmlTag): void {
    const level = Number(HEADING.exec(token.name)![1]);
    if (token.kind === 'open') {
      this.flush();
      if (this.heading !== null) this.headings.push(this.heading.level, this.heading.text); // an unclosed previous heading
      this.heading = { level, text: '' };
    } else if (this.heading !== null) {
      this.headings.push(this.heading.level, this.heading.text);
      if (this.heading.level === 1 && this.firstH1 === null) this.firstH1 = normaliseWhitespace(this.heading.text) || null;
      this.heading = null;
    }
  }

  /** Any other block outside tables: it ends the text before it, and is opened or closed on the stack of blocks. */
  private blockTag(token: HtmlTag): void {
    const { name } = token;
    this.flush();
    if (token.kind === 'open' && !VOID.has(name)) openBlock(this.blocks, name);
    else if (token.kind === 'close' && this.blocks.includes(name)) this.blocks.length = this.blocks.lastIndexOf(name);
  }

  /** The text read since the last block boundary: one fact in an li, else a paragraph split into sentences. */
  private flush(): void {
    const text = normaliseWhitespace(this.buffer);
    this.buffer = '';
    if (text === '') return;
    if (this.blocks[this.blocks.length - 1] === 'li') this.facts.addFact(text, this.headings.path);
    else this.facts.addParagraph(text, this.headings.path);
  }

  /** Text goes to the open heading, else the open table cell or caption, else the current block. */
  private write(text: string): void {
    const table = this.tables[this.tables.length - 1];
    if (this.heading !== null) this.heading.text += text;
    else if (table?.cell != null) table.cell += text;
    else if (table?.caption != null) table.caption += text;
    else this.buffer += text;
  }
}

function closeCell(table: Table): void {
  if (table.cell === null) return;
  if (table.rows.length === 0) table.rows.push({ cells: [], isHeader: [] });
  const row = table.rows[table.rows.length - 1]!;
  row.cells.push(table.cell);
  row.isHeader.push(table.cellIsHeader);
  table.cell = null;
}

/** The first <base href>, <link rel="canonical" href> and og:url <meta> of the page. */
function noteLink(links: PageLinks, name: string, attributes: Readonly<Record<string, string>>): void {
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
