import { renderHeadedRow } from './facts.js';
import { BARE_NUMBER, isBand, isLabelLine, TABLE_CAPTION } from './line-shapes.js';
import { wordCount } from './split-sentences.js';
import { BlockReader, ENDS_OPEN, isCellValue, joinWrapped, readBlocks, type Block, type TextTable } from './text-blocks.js';

type Column = 'serial' | 'text' | 'value';

interface TextRow {
  readonly text: string;
  readonly block: number;
  readonly note: boolean;
}

const INTEGER = /^\d{1,5}$/;
/** "Fine : Light Vehicle: $150 ; …", "1st offence: …": a note on a group of rows, not a row. */
const NOTE = /^\S(?:[^:]{0,28}\S)?\s?:\s/;
const MAX_BLOCKS = 60;
const MAX_HEADER_WORDS = 4;
const MAX_HEADERS = 6;
const MAX_LINE_WORDS = 24;
const MAX_CONTEXT_WORDS = 10;

/**
 * A table flattened column by column: its header cells, then each column as a
 * run of lines (split into several runs where the page split it). Read when
 * the columns agree: a text column (wrapped lines joined), a value column and,
 * optionally, a serial-number column (1, 2, 3, …) with one line per row each.
 * Lines of the text column that read "Label: …", or that it repeats, are notes
 * on the group of rows above them (a fine under a group of offences). Or,
 * with no header cells, a block of labels and the block of as many values
 * after it (see readPairedBlocks). Null for anything else. Pure.
 */
export function readColumns(lines: readonly string[], start: number): TextTable | null {
  return readHeadedColumns(lines, start) ?? readPairedBlocks(lines, start);
}

function readHeadedColumns(lines: readonly string[], start: number): TextTable | null {
  const reader = new BlockReader(lines, start, MAX_BLOCKS, endsColumns);
  const headers: string[] = [];
  const columns: Array<{ lines: readonly string[]; block: number }> = [];
  let b = 0;
  for (let block = reader.at(b)?.lines; block !== undefined; block = reader.at(++b)?.lines) {
    if (headers.length > MAX_HEADERS) return null;
    if (block.length === 1 && isHeaderCell(block[0]!)) headers.push(block[0]!);
    else if (block.length >= 3 && isHeaderCell(block[0]!) && block.slice(1).every((line) => INTEGER.test(line))) {
      headers.push(block[0]!); // "S/No." above its serial numbers
      columns.push({ lines: block.slice(1), block: b });
    } else break;
  }
  if (headers.length < 2) return null;
  // a column is a run of one-cell lines: a header row followed by a paragraph is not a column-wise table
  const firstColumn = reader.at(b);
  if (firstColumn === undefined || !isColumnRun(firstColumn.lines)) return null;
  for (let block = reader.at(b); block !== undefined; block = reader.at(++b)) columns.push({ lines: block.lines, block: b });

  const serial: string[] = [];
  const values: string[] = [];
  const rows: TextRow[] = [];
  const order: Column[] = [];
  let next: number | null = null;
  for (const column of columns) {
    const numbers = column.lines.every((line) => INTEGER.test(line)) ? column.lines.map(Number) : null;
    const counts = numbers !== null && numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
    let kind: Column;
    if (counts && (next === null ? serial.length === 0 && numbers.length >= 2 : numbers[0] === next)) {
      serial.push(...column.lines);
      next = numbers[numbers.length - 1]! + 1;
      kind = 'serial';
    } else if (column.lines.every(isCellValue)) {
      values.push(...column.lines);
      kind = 'value';
    } else {
      for (const text of joinWrapped(column.lines)) rows.push({ text, block: column.block, note: NOTE.test(text) });
      kind = 'text';
    }
    if (!order.includes(kind)) order.push(kind);
  }
  // a line said again and again down the column ("Offender will be prosecuted in court") is a note too
  const seen = new Map<string, number>();
  for (const row of rows) seen.set(row.text, (seen.get(row.text) ?? 0) + 1);
  for (const [i, row] of rows.entries()) if ((seen.get(row.text) ?? 0) > 1) rows[i] = { ...row, note: true };
  const items = rows.filter((row) => !row.note);
  const n = values.length;
  if (n < 2 || items.length !== n || (serial.length > 0 && serial.length !== n) || headers.length !== order.length) return null;
  if (!order.includes('text')) return null;
  const headerOf = (kind: Column): string => headers[order.indexOf(kind)]!;
  const notes = notesOfRows(rows);
  const texts = items.map((item, i) =>
    renderHeadedRow({
      rowHeader: headerOf('text'),
      label: item.text,
      headers: [headerOf('value')],
      values: [values[i]!],
      notes: notes.get(item)?.map(tidyNote) ?? [],
    }),
  );
  const last = reader.at(columns[columns.length - 1]!.block)!;
  return { caption: null, notes: [], rows: texts, end: last.end };
}

/**
 * Notes close the group of rows above them (up to the previous note or a break
 * in the column); in a column that starts with a note, they open the group
 * below instead.
 */
function notesOfRows(rows: readonly TextRow[]): Map<TextRow, string[]> {
  const byRow = new Map<TextRow, string[]>();
  const footers = rows[0]?.note !== true;
  const ordered = footers ? rows : [...rows].reverse();
  let group: TextRow[] = [];
  let pending: string[] = [];
  const close = (): void => {
    for (const row of group) byRow.set(row, footers ? pending : [...pending].reverse());
    group = [];
    pending = [];
  };
  ordered.forEach((row, i) => {
    const previous = ordered[i - 1];
    if (previous !== undefined && previous.block !== row.block) close();
    else if (!row.note && pending.length > 0) close();
    if (row.note) pending.push(row.text);
    else group.push(row);
  });
  close();
  return byRow;
}

/**
 * A block of short labels and, next, a block of as many values, one a line:
 * "First $5,000 / Next $5,000 / Above $10,000" then "10% / 5% / 3%". Lines of
 * the first block above its labels are the table's caption and what heads the
 * label column (they must be short: a paragraph above labels is not a header).
 */
function readPairedBlocks(lines: readonly string[], start: number): TextTable | null {
  const [first, second] = readBlocks(lines, start, 2, () => false);
  if (first === undefined || second === undefined || second.lines.length < 2 || !second.lines.every(isCellValue)) return null;
  if (second.lines.some((line) => ENDS_OPEN.test(line))) return null; // "$120 per visit, up to" / "10 visits a year": one value
  // titles beside bare numbers with no header: a table of contents and its pages, not values
  if (second.lines.every((line) => BARE_NUMBER.test(line))) return null;
  const rows = joinWrapped(first.lines);
  const n = second.lines.length;
  if (rows.length < n) return null;
  const labels = rows.slice(rows.length - n);
  if (!labels.every((label) => isLabelLine(label) || isBand(label)) || labels.some((label) => NOTE.test(label))) return null;
  const above = rows.slice(0, rows.length - n);
  const caption = above[0] !== undefined && TABLE_CAPTION.test(above[0]) ? above.shift()! : null;
  if (above.some((line) => wordCount(line) > MAX_CONTEXT_WORDS || /[.;!?]$/.test(line))) return null;
  const rowHeader = above.pop() ?? null;
  const title = [caption, ...above].filter((part) => part !== null).join(' — ');
  return {
    caption,
    notes: [],
    rows: labels.map((label, i) => renderHeadedRow({ title, rowHeader, label, values: [second.lines[i]!] })),
    end: second.end,
  };
}

/** Two or more lines, each a number, a value or a short line of text. */
function isColumnRun(lines: readonly string[]): boolean {
  return lines.length >= 2 && lines.every((line) => isCellValue(line) || wordCount(line) <= MAX_LINE_WORDS);
}

function isHeaderCell(line: string): boolean {
  return /\p{L}{2}/u.test(line) && wordCount(line) <= MAX_HEADER_WORDS && !isCellValue(line) && !isAllCaps(line);
}

/** A heading in capitals, a caption or a long paragraph line ends a column-wise table. */
function endsColumns(block: Block): boolean {
  const first = block.lines[0]!;
  return isAllCaps(first) || TABLE_CAPTION.test(first) || block.lines.some((line) => wordCount(line) > MAX_LINE_WORDS);
}

function isAllCaps(line: string): boolean {
  return /\p{Lu}{2}/u.test(line) && !/\p{Ll}/u.test(line);
}

/** "Fine : Light Vehicle: $150 ; Heavy Vehicle : $200" → "Fine: Light Vehicle: $150; Heavy Vehicle: $200". */
function tidyNote(note: string): string {
  return note.replace(/\s+([:;,])/g, '$1');
}
