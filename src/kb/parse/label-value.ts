import { renderTableRow } from './facts.js';
import { isLabelLine, isValueLine, LIST_ITEM, withoutListMarker } from './line-shapes.js';
import { wordCount } from './split-sentences.js';

/** One label–value row read from lines of text. */
export interface LabelValueRow {
  /** Label lines, wrapped lines joined ("Maximum claim limit", "Per policy year"). */
  readonly labels: readonly string[];
  readonly values: readonly string[];
  /** The row's first label line began with a list marker. */
  readonly listMarked: boolean;
  /** Index of the first line after the row. */
  readonly end: number;
}

const MAX_LABEL_LINES = 4;
const MAX_COLUMN_HEADERS = 8;
/** A wrapped line: it continues the previous one rather than starting a new label. */
const ENDS_OPEN = /(?:[-–—,&/(]|\b(?:and|or|of|for|the|to|in|on|at|by|with|from|between|than|within|a|an|per|is|are|be))$/i;
const MAX_VALUE_WORDS = 16;
const STARTS_CONTINUATION = /^[\p{Ll}(]/u;
const HAS_TEXT = /[\p{L}\p{N}]/u;

/**
 * Reads a row at `start`: a run of up to four short label lines (no blank line
 * inside; a list marker only on the first) and then, after any blank lines, a
 * value line with its wrapped continuation ("$200 - $9,600 per month,\n
 * depending on drug"). More single-line values may follow, one per column of a
 * flattened multi-column table. Null when the lines are not that shape.
 */
export function readLabelValueRow(lines: readonly string[], start: number): LabelValueRow | null {
  const first = lines[start] ?? '';
  if (!isLabelLine(first)) return null;
  const raw = [withoutListMarker(first)];
  let i = start + 1;
  for (; i < lines.length && lines[i] !== ''; i++) {
    const line = lines[i] ?? '';
    if (isValueLine(line)) break;
    if (LIST_ITEM.test(line) || !isLabelLine(line) || raw.length === MAX_LABEL_LINES) return null;
    raw.push(line);
  }
  if (lines[i] !== '' && ENDS_OPEN.test(raw[raw.length - 1] ?? '')) return null; // "occurs between\n2 exits": one sentence
  i = skipBlank(lines, i);
  if (!isValueLine(lines[i] ?? '')) return null;
  let value = lines[i] ?? '';
  const valueStart = i;
  for (i += 1; i < lines.length && continuesValue(value, lines, i); i++) value = `${value} ${lines[i]}`;
  const values = [value];
  // a one-line value may be followed by more: the other columns of the same row
  while (i === valueStart + 1 || values.length > 1) {
    const next = skipBlank(lines, i);
    const line = lines[next] ?? '';
    if (!isValueLine(line) || ENDS_OPEN.test(line) || isContinuation(line, lines[next + 1] ?? '')) break;
    values.push(line);
    i = next + 1;
  }
  return { labels: joinWrapped(raw), values, listMarked: LIST_ITEM.test(first), end: i };
}

/**
 * Short lines naming the columns of a flattened table ("A", "B", "C"), at
 * `start`, when the row after them has exactly one value per header.
 */
export function readColumnHeaders(lines: readonly string[], start: number): { headers: string[]; rowStart: number } | null {
  const headers: string[] = [];
  let i = start;
  while (headers.length < MAX_COLUMN_HEADERS) {
    const line = lines[i] ?? '';
    if (line === '' || wordCount(line) > 3 || LIST_ITEM.test(line) || isValueLine(line) || /[.;!?]$/.test(line)) break;
    headers.push(line);
    i = skipBlank(lines, i + 1);
  }
  if (headers.length < 2) return null;
  const row = readLabelValueRow(lines, i);
  return row !== null && row.values.length === headers.length ? { headers, rowStart: i } : null;
}

/**
 * A two-column table flattened one cell per line, without blank lines: two
 * header lines, then label and value lines in turn (at least two rows).
 */
export function readFlattenedTable(lines: readonly string[], start: number): { rows: string[]; end: number } | null {
  let end = start;
  while (end < lines.length && lines[end] !== '') end++;
  const block = lines.slice(start, end);
  if (block.length < 6 || block.length % 2 !== 0) return null;
  const [left = '', right = ''] = block;
  if (!isLabelLine(left) || !isLabelLine(right) || LIST_ITEM.test(left)) return null;
  const rows: string[] = [];
  for (let i = 2; i < block.length; i += 2) {
    const label = block[i] ?? '';
    const value = block[i + 1] ?? '';
    if (!isLabelLine(label) || !isValueLine(value)) return null;
    rows.push(renderTableRow([left, right], [withoutListMarker(label), value]));
  }
  return { rows, end };
}

/** "Label: value", or with several values "Label — Header: value; …" (header names when known). */
export function renderLabelValue(rawLabel: string, values: readonly string[], headers: readonly string[] | null): string {
  const label = rawLabel.replace(/\s*:$/, '');
  if (values.length === 1) return `${label}: ${values[0]}`;
  return `${label} — ${values.map((value, i) => (headers?.[i] ? `${headers[i]}: ${value}` : value)).join('; ')}`;
}

/**
 * Line `i` wraps the value so far: not a value or list item itself, and either
 * plainly a continuation, or a short tail that is not the label of a next row
 * (no value right after it) — "$15,700 per treatment\ncourse".
 */
function continuesValue(value: string, lines: readonly string[], i: number): boolean {
  const line = lines[i] ?? '';
  if (!HAS_TEXT.test(line) || LIST_ITEM.test(line) || wordCount(`${value} ${line}`) > MAX_VALUE_WORDS) return false;
  if (ENDS_OPEN.test(value)) return true; // "$120 per visit, up to\n10 visits a year"
  if (isValueLine(line)) return false;
  if (STARTS_CONTINUATION.test(line)) return true;
  return wordCount(line) <= 4 && !/[.!?]$/.test(line) && !isValueLine(lines[i + 1] ?? '');
}

function isContinuation(previous: string, line: string): boolean {
  return HAS_TEXT.test(line) && !LIST_ITEM.test(line) && !isValueLine(line) && (STARTS_CONTINUATION.test(line) || ENDS_OPEN.test(previous));
}

function joinWrapped(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of raw) {
    const last = out[out.length - 1];
    if (last !== undefined && (STARTS_CONTINUATION.test(line) || ENDS_OPEN.test(last))) out[out.length - 1] = `${last} ${line}`;
    else out.push(line);
  }
  return out;
}

function skipBlank(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i] === '') i++;
  return i;
}
