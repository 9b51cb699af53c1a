import { BARE_NUMBER, isValueLine, TABLE_CAPTION } from './line-shapes.js';
import { wordCount } from './split-sentences.js';

/** Lines between blank lines: in text that came out of a PDF, one table cell, or a column of them. */
export interface Block {
  readonly lines: readonly string[];
  readonly start: number;
  /** Index of the line after the block. */
  readonly end: number;
}

/** A table read from flattened text: its row facts, and the notes and loose header text kept as facts of their own. */
export interface TextTable {
  /** The caption it was read from, a heading for what follows. */
  readonly caption: string | null;
  readonly notes: readonly string[];
  readonly rows: readonly string[];
  /** Index of the first line after the table. */
  readonly end: number;
}

/** A line wraps on when it ends mid-phrase. */
export const ENDS_OPEN = /(?:[-–—,&/(]|\b(?:and|or|of|for|the|to|in|on|at|by|with|from|between|than|within|a|an|per|is|are|be))$/i;
const CONTINUES = /^[\p{Ll}(]/u;
const MAX_CAPTION_WORDS = 16;

/** A cell that states a value: a value line or a number alone ("51", "N.A." is a value line). */
export function isCellValue(line: string): boolean {
  return BARE_NUMBER.test(line) || isValueLine(line);
}

/**
 * Up to `max` blocks from `from` (blank lines skipped), ending before the first block `stop` refuses,
 * read only as far as they are asked for: a reader tried at every line must not read the whole document.
 */
export class BlockReader {
  private readonly blocks: Block[] = [];
  private next: number;
  private done = false;

  constructor(
    private readonly lines: readonly string[],
    from: number,
    private readonly max: number,
    private readonly stop: (block: Block) => boolean,
  ) {
    this.next = from;
  }

  /** Block `k`, or undefined past the last. */
  at(k: number): Block | undefined {
    while (this.blocks.length <= k && !this.done) this.read();
    return this.blocks[k];
  }

  private read(): void {
    const { lines } = this;
    let i = this.next;
    while (i < lines.length && lines[i] === '') i++;
    let end = i;
    while (end < lines.length && lines[end] !== '') end++;
    const block = { lines: lines.slice(i, end), start: i, end };
    if (i >= lines.length || this.blocks.length >= this.max || this.stop(block)) {
      this.done = true;
      return;
    }
    this.blocks.push(block);
    this.next = end;
  }
}

/** All the blocks a BlockReader would give. */
export function readBlocks(lines: readonly string[], from: number, max: number, stop: (block: Block) => boolean): Block[] {
  const reader = new BlockReader(lines, from, max, stop);
  const blocks: Block[] = [];
  for (let block = reader.at(0); block !== undefined; block = reader.at(blocks.length)) blocks.push(block);
  return blocks;
}

/** Lines joined where one wraps onto the next (it starts in lower case or with "(", or the one before ends mid-phrase). */
export function joinWrapped(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    if (last !== undefined && (CONTINUES.test(line) || ENDS_OPEN.test(last))) out[out.length - 1] = `${last} ${line}`;
    else out.push(line);
  }
  return out;
}

/** What follows a "Table X: …" line up to the next blank line. */
export interface Caption {
  readonly title: string;
  /** Lines the caption wrapped onto, before its notes. */
  readonly rest: readonly string[];
  /** Parenthesised notes: "(Applicable for … on or after 1 April 2025)". */
  readonly notes: readonly string[];
  /** Lines after the notes (or after the caption, when it has none): a header cell, or more of the caption. */
  readonly tail: readonly string[];
  /** Index of the line after the caption's block. */
  readonly end: number;
}

/** The caption at `start`, or null when that line is not a table's caption. */
export function readCaption(lines: readonly string[], start: number): Caption | null {
  const title = lines[start] ?? '';
  if (!TABLE_CAPTION.test(title) || wordCount(title) > MAX_CAPTION_WORDS) return null;
  const rest: string[] = [];
  const notes: string[][] = [];
  let tail: string[] = [];
  let inNote = false;
  let i = start + 1;
  for (; i < lines.length && lines[i] !== ''; i++) {
    const line = lines[i] ?? '';
    if (inNote) notes[notes.length - 1]!.push(line);
    else if (line.startsWith('(')) {
      rest.push(...tail);
      tail = [];
      notes.push([line]);
    } else tail.push(line);
    inNote = (inNote || line.startsWith('(')) && !line.endsWith(')');
  }
  // no notes: what follows is the caption wrapping or a header cell; the table's shape decides (text-grid.ts)
  return { title, rest, notes: notes.map((note) => note.join(' ')), tail, end: i };
}
