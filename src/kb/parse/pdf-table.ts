import { renderTableRow } from './facts.js';
import { isValueLine } from './line-shapes.js';
import type { PdfCell, PdfLine } from './pdf-lines.js';

interface Row {
  cells: string[];
  xs: number[];
  readonly ends: number[];
  readonly bold: boolean;
  readonly page: number;
  readonly group: string | null;
}

const STARTS_CONTINUATION = /^[\p{Ll}(]/u;
const HAS_DIGIT = /\d/;

/**
 * A table being read from a PDF: lines with two or more cells are rows; a
 * one-cell line below a row that lines up with one of its columns continues
 * that cell (wrapped text), or, at the first column and followed by another
 * row, names a group of the rows after it ("Maximum claim limit" above
 * "Per policy year | $200,000"). The first row is the header when it is bold
 * over a regular body, or holds no figures while the body does.
 */
export class PdfTable {
  private readonly rows: Row[] = [];
  private group: string | null = null;

  constructor(first: PdfLine) {
    this.addRow(first);
  }

  addRow(line: PdfLine): void {
    this.rows.push({
      cells: line.cells.map((c) => c.text),
      xs: line.cells.map((c) => c.x),
      ends: line.cells.map((c) => c.end),
      bold: line.bold,
      page: line.page,
      group: this.group,
    });
  }

  /** Takes a one-cell line into the table when it lines up with a column; false when it does not belong. */
  attach(line: PdfLine, nextIsRow: boolean): boolean {
    const cell = line.cells[0] as PdfCell;
    const last = this.rows[this.rows.length - 1]!;
    const tolerance = Math.max(2, 0.3 * line.size);
    const column = last.xs.findIndex((x) => Math.abs(x - cell.x) <= tolerance);
    if (column < 0) return false;
    if (column === 0 && nextIsRow && !STARTS_CONTINUATION.test(cell.text) && !isValueLine(cell.text)) {
      this.group = cell.text;
      return true;
    }
    last.cells[column] = `${last.cells[column] ?? ''} ${cell.text}`.trim();
    return true;
  }

  /** One fact per body row, with the page it sits on. */
  facts(): Array<{ text: string; page: number }> {
    const [first, ...body] = this.rows;
    if (first === undefined) return [];
    const header = body.length > 0 && isHeader(first, body) ? first : null;
    const rows = header === null ? this.rows : body;
    return rows.map((row) => {
      const cells = header === null ? row.cells : alignTo(header, row);
      if (row.group !== null) cells[0] = `${row.group}, ${cells[0] ?? ''}`;
      const text =
        header !== null
          ? renderTableRow(header.cells, cells)
          : `${cells[0] ?? ''}: ${cells
              .slice(1)
              .filter((c) => c !== '')
              .join('; ')}`;
      return { text, page: row.page };
    });
  }
}

function isHeader(first: Row, body: readonly Row[]): boolean {
  if (first.bold && !body.every((row) => row.bold)) return true;
  return !first.cells.some((cell) => HAS_DIGIT.test(cell)) && body.some((row) => row.cells.some((cell) => HAS_DIGIT.test(cell)));
}

/**
 * Puts each cell under its header: the one at the same place when the row has a cell for every header;
 * otherwise the header it overlaps most (a browser centres headers over left-aligned cells), or, overlapping
 * none, the last header starting at or before it.
 */
function alignTo(header: Row, row: Row): string[] {
  if (row.cells.length === header.cells.length) return [...row.cells];
  const cells = header.xs.map(() => '');
  row.cells.forEach((text, i) => {
    const x = row.xs[i] ?? 0;
    const end = row.ends[i] ?? x;
    const overlaps = header.xs.map((hx, j) => Math.min(end, header.ends[j] ?? hx) - Math.max(x, hx));
    const most = overlaps.reduce((best, overlap, j) => (overlap > (overlaps[best] ?? 0) ? j : best), -1);
    let column = 0;
    header.xs.forEach((hx, j) => {
      if (hx <= x + 2) column = j;
    });
    if (most >= 0) column = most;
    cells[column] = `${cells[column]} ${text}`.trim();
  });
  return cells;
}
