import { stripFootnoteMarkers } from './footnotes.js';
import { normaliseWhitespace } from './normalise.js';
import { splitSentences } from './split-sentences.js';
import type { ParsedDocument, ParsedFact } from './types.js';

/** A fact must hold at least one word of two or more letters; "A", "(b)", "$240" and "5" carry nothing. */
const HAS_WORD = /\p{L}{2}/u;
/**
 * A question states nothing: as a fact it matches every question like it and answers none
 * (a table of contents listing "Who needs to pay Additional Premiums?"). FAQ questions that head
 * their answers are headings, which every parser keeps as context.
 */
const QUESTION = /\?["'”’)\]]*$/u;

/** Where a fact sits beyond its heading: its page, for paged formats. */
export interface FactPlace {
  readonly page?: number | undefined;
}

/** A lead-in line ("These include:", "Please refer to the following website:") takes at most this many of the facts after it… */
const LEAD_IN_ITEMS = 8;
/** …and grows to at most this many characters. */
const LEAD_IN_CHARS = 600;

/**
 * Collects facts in document order: drops empty, wordless and question-only
 * ones, takes footnote markers off words, keeps a fact only once per heading,
 * and numbers positions from 0. A lead-in line — one ending in ":" — keeps its
 * content: the short facts that follow it under the same heading (list items, a
 * link) are joined to it ("These include: A; B; C"), and each stays a fact of its own too.
 */
export class FactCollector {
  private readonly facts: ParsedFact[] = [];
  private readonly seen = new Set<string>();
  private leadIn: { fact: ParsedFact; heading: string | null; stem: string; items: string[] } | null = null;

  /** A block of running text: one fact per sentence. */
  addParagraph(text: string, heading: string | null, where: FactPlace = {}): void {
    // Running prose after a lead-in line is not its content (code may have stood between them); a bare link or item is.
    const clean = normaliseWhitespace(text);
    if (this.leadIn !== null && (/[.!?]["'”’)]*$/.test(clean) || clean.length > 200) && !/^(?:https?:\/\/|www\.)\S+$/.test(clean))
      this.leadIn = null;
    for (const sentence of splitSentences(text)) this.addFact(sentence, heading, { page: where.page });
  }

  /** A list item, table row or other unit kept whole as one fact. */
  addFact(text: string, heading: string | null, where: FactPlace & { row?: boolean } = {}): void {
    const clean = normaliseWhitespace(stripFootnoteMarkers(text));
    if (clean === '') return;
    this.joinToLeadIn(clean, heading, where.row === true);
    if (!HAS_WORD.test(clean) || QUESTION.test(clean)) return;
    const key = `${heading ?? ''}\u0000${clean}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const fact: ParsedFact = { text: clean, heading, position: this.facts.length };
    if (where.row === true) fact.row = true;
    if (where.page !== undefined) fact.page = where.page;
    this.facts.push(fact);
    if (where.row !== true && clean.endsWith(':') && clean.length < LEAD_IN_CHARS / 2)
      this.leadIn = { fact, heading, stem: clean, items: [] };
  }

  /** Joins a fact to the open lead-in line it follows (same heading, short, not a table row), or closes the lead-in. */
  private joinToLeadIn(clean: string, heading: string | null, row: boolean): void {
    const open = this.leadIn;
    if (open === null) return;
    const joined = `${open.stem} ${[...open.items, clean.replace(/[;.]$/, '')].join('; ')}`;
    if (row || heading !== open.heading || clean.endsWith(':') || open.items.length >= LEAD_IN_ITEMS || joined.length > LEAD_IN_CHARS) {
      this.leadIn = null;
      return;
    }
    open.items.push(clean.replace(/[;.]$/, ''));
    open.fact.text = joined;
  }

  get count(): number {
    return this.facts.length;
  }

  result(title: string | null): ParsedDocument {
    const cleanTitle = title === null ? null : normaliseWhitespace(title);
    return { title: cleanTitle === '' ? null : cleanTitle, facts: this.facts };
  }
}

/**
 * The current heading path. Each heading has a rank (its level); a new heading
 * closes every open heading of the same or a deeper rank.
 */
export class HeadingStack {
  private entries: Array<{ rank: number; text: string }> = [];

  push(rank: number, text: string): void {
    const clean = normaliseWhitespace(stripFootnoteMarkers(text));
    if (clean === '') return;
    this.entries = this.entries.filter((entry) => entry.rank < rank);
    this.entries.push({ rank, text: clean });
  }

  /** The path without its deepest heading. */
  get parentPath(): string | null {
    return this.entries.length <= 1
      ? null
      : this.entries
          .slice(0, -1)
          .map((entry) => entry.text)
          .join(' > ');
  }

  get path(): string | null {
    return this.entries.length === 0 ? null : this.entries.map((entry) => entry.text).join(' > ');
  }
}

/**
 * One table row as a fact: "Header1: value1; Header2: value2". Empty cells are
 * left out; a cell with no header keeps just its value.
 */
export function renderTableRow(headers: readonly string[], cells: readonly string[]): string {
  const parts: string[] = [];
  cells.forEach((raw, index) => {
    const value = normaliseWhitespace(raw);
    if (value === '') return;
    const header = normaliseWhitespace(headers[index] ?? '');
    parts.push(header === '' || header === value ? value : `${header}: ${value}`);
  });
  return parts.join('; ');
}

/** Emits a table: the header row labels every body row; a lone row becomes its cells joined by "; ". */
export function addTable(
  collector: FactCollector,
  headers: readonly string[],
  rows: readonly string[][],
  heading: string | null,
  where: FactPlace = {},
): void {
  if (rows.length === 0) {
    collector.addFact(renderTableRow([], headers), heading, { ...where, row: true });
    return;
  }
  for (const row of rows) collector.addFact(renderTableRow(headers, row), heading, { ...where, row: true });
}

/** A table row read from flattened text, with what names it. */
export interface HeadedRow {
  /** The table's caption ("Table B: Premiums (before subsidies)"). */
  readonly title?: string | null;
  /** The header of the row-label column ("Age Next Birthday"). */
  readonly rowHeader?: string | null;
  readonly label: string;
  /** The header of each value's column; null where unknown. */
  readonly headers?: readonly (string | null)[] | null;
  readonly values: readonly string[];
  /** Notes that hold for the row ("Fine: $150"). */
  readonly notes?: readonly string[];
}

/**
 * One row as a fact a person can read alone: "Title — Row header: label —
 * Header: value; Header: value", each part left out when unknown; with no
 * headers at all, "label: value" as a label–value row reads.
 */
export function renderHeadedRow(row: HeadedRow): string {
  const clean = (text: string | null | undefined): string => normaliseWhitespace(text ?? '');
  const label = clean(row.label).replace(/\s*:$/, '');
  const rowHeader = clean(row.rowHeader).replace(/\s*:$/, '');
  const cells = row.values.map((value, i) => {
    const header = clean(row.headers?.[i]);
    return header === '' ? clean(value) : `${header}: ${clean(value)}`;
  });
  const headed = rowHeader !== '' || cells.some((_, i) => clean(row.headers?.[i]) !== '');
  const key = rowHeader === '' ? label : `${rowHeader}: ${label}`;
  const parts = [clean(row.title), `${key}${headed ? ' — ' : ': '}${cells.join('; ')}`, ...(row.notes ?? []).map(clean)];
  return parts.filter((part) => part !== '').join(' — ');
}
