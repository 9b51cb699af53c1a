import { BARE_NUMBER, isBand } from './line-shapes.js';
import { isCellValue } from './text-blocks.js';

interface HeaderGroup {
  readonly row: string | null;
  readonly values: readonly (string | null)[];
}

/** Which header names which column of a table flattened into text (text-grid.ts). */
export interface Headers {
  /** One per table set side by side ("Age | Premium | Age | Premium"): its row-label header and value headers. */
  readonly groups: readonly HeaderGroup[];
  /** Caption lines that named no column: the caption wrapped onto them. */
  readonly captionRest: readonly string[];
  /** Header text that fits no column: kept as facts of their own. */
  readonly loose: readonly string[];
}

const MAX_GROUPS = 4;

/**
 * Which header cell names which column, for rows of `width` values. Header
 * blocks of text are matched by count: `width + 1` per side-by-side table
 * (the row-label header first), or `width` (value headers only), with the
 * caption's trailing line as one more cell where the count needs it. Header
 * blocks holding figures ("Lower-Income / $0 - $1,500") are read by keyedHeaders.
 */
export function resolveHeaders(blocks: readonly (readonly string[])[], tail: readonly string[], width: number): Headers {
  const cells = blocks.filter((block) => !block.every((line) => BARE_NUMBER.test(line))); // footnote marks ("1", "2")
  if (cells.some((block) => block.some(isCellValue))) return keyedHeaders([tail, ...cells], width);
  const texts = cells.map((block) => block.join(' '));
  const tailCell = tail.length > 0 ? tail.join(' ') : null;
  const grouped = (all: readonly string[]): HeaderGroup[] | null => {
    const count = all.length / (width + 1);
    if (!Number.isInteger(count) || count < 1 || count > MAX_GROUPS) return null;
    return Array.from({ length: count }, (_, g) => {
      const [row = null, ...values] = all.slice(g * (width + 1), (g + 1) * (width + 1));
      return { row, values };
    });
  };
  const asCells = grouped(texts);
  if (asCells !== null) return { groups: asCells, captionRest: tail, loose: [] };
  const withTail = tailCell === null ? null : grouped([tailCell, ...texts]);
  if (withTail !== null) return { groups: withTail, captionRest: [], loose: [] };
  if (texts.length === width) return { groups: [{ row: tailCell, values: texts }], captionRest: [], loose: [] };
  if (tailCell !== null && texts.length + 1 === width)
    return { groups: [{ row: null, values: [tailCell, ...texts] }], captionRest: [], loose: [] };
  return { groups: [{ row: null, values: [] }], captionRest: [], loose: tailCell === null ? texts : [tailCell, ...texts] };
}

/**
 * Headers that hold the columns' own figures or bands: when exactly `width`
 * header lines are figures, they head the columns in order, each with its name
 * when every one has a line of its own just above it. The text above the
 * first names them all (a spanning header); a single header cell before that
 * is the row-label header.
 */
function keyedHeaders(blocks: readonly (readonly string[])[], width: number): Headers {
  const all = blocks.filter((block) => block.length > 0);
  const isKey = (line: string): boolean => isCellValue(line) || isBand(line);
  const keys = all.flatMap((block, b) => block.flatMap((line, l) => (isKey(line) ? [{ b, l, line }] : [])));
  if (keys.length !== width) return { groups: [{ row: null, values: [] }], captionRest: [], loose: all.map((block) => block.join(' ')) };
  const names = keys.map(({ b, l }) => {
    const above = all[b]![l - 1];
    return above === undefined || isKey(above) ? null : above;
  });
  const named = names.every((name) => name !== null) && new Set(names).size === names.length;
  const { b: firstBlock, l: firstLine } = keys[0]!;
  const axis = all[firstBlock]!.slice(0, firstLine).filter((line) => !names.includes(line));
  const before = all.slice(0, firstBlock).map((block) => block.join(' '));
  const values = keys.map(({ line }, i) => [i === 0 ? axis.join(' ') : '', named ? names[i] : '', line].filter((part) => part).join(' '));
  return { groups: [{ row: before.length === 1 ? before[0]! : null, values }], captionRest: [], loose: before.length > 1 ? before : [] };
}
