import { readColumnHeaders, readFlattenedTable, readLabelValueRow, renderLabelValue } from './label-value.js';

/**
 * Label–value rows in text that came out of a PDF, read where a row may start,
 * with what a row carries over to the next: the column headers of a flattened
 * multi-column table. They last only while rows follow one another (blank
 * lines between them allowed); any other line ends them. (A row label that
 * spans sub-rows is not carried: "Lifetime" after "Maximum claim limit / Per
 * policy year" reads exactly like a new row, and a wrong label is worse than
 * a missing one.)
 */
export class TextRows {
  private headers: string[] | null = null;
  private lastEnd = -1;

  /** True when line `i` directly follows the last row (only blank lines between). */
  follows(lines: readonly string[], i: number): boolean {
    if (this.lastEnd < 0 || i < this.lastEnd) return false;
    for (let j = this.lastEnd; j < i; j++) if (lines[j] !== '') return false;
    return true;
  }

  /** The row facts starting at line `i` and the index after them, or null (and carried state is dropped). */
  read(lines: readonly string[], i: number): { texts: string[]; end: number } | null {
    if (!this.follows(lines, i)) this.headers = null;
    const table = readFlattenedTable(lines, i);
    if (table !== null) return this.done({ texts: table.rows, end: table.end });
    let start = i;
    const columns = readColumnHeaders(lines, i);
    if (columns !== null) {
      this.headers = columns.headers;
      start = columns.rowStart;
    }
    const row = readLabelValueRow(lines, start);
    if (row === null) {
      this.lastEnd = -1;
      return null;
    }
    const headers = this.headers?.length === row.values.length ? this.headers : null;
    return this.done({ texts: [renderLabelValue(row.labels.join(', '), row.values, headers)], end: row.end });
  }

  private done(found: { texts: string[]; end: number }): { texts: string[]; end: number } {
    this.lastEnd = found.end;
    return found;
  }
}
