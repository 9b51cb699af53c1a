import { normaliseWhitespace } from './normalise.js';
import { lineCells, type PlacedRun } from './pdf-cells.js';

/** One run of text as a PDF places it: baseline origin (PDF units, y upwards), advance width, font size and weight. */
export interface PdfRun {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly size: number;
  readonly bold: boolean;
}

export interface PdfPageText {
  /** 1-based. */
  readonly page: number;
  readonly runs: readonly PdfRun[];
}

/** Text between column gaps on one line. */
export interface PdfCell {
  readonly text: string;
  readonly x: number;
  readonly end: number;
}

export interface PdfLine {
  readonly page: number;
  readonly y: number;
  /** Font size of most of the line's characters. */
  readonly size: number;
  /** Every run with letters is bold. */
  readonly bold: boolean;
  readonly cells: readonly PdfCell[];
}

/** Runs whose baselines differ by less than this share of the font size sit on one line (superscripts included). */
const SAME_LINE = 0.5;
/** A gap wider than this share of the font size is a space between words. */
const WORD_GAP = 0.15;

/**
 * Groups a page's runs into lines (top to bottom) and each line into cells:
 * separated by column-wide gaps, or by narrower ones where lines line up as
 * the rows of a table (pdf-cells.ts). Pure: positions in, lines out.
 */
export function groupLines(page: PdfPageText): PdfLine[] {
  const runs = [...page.runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: PdfRun[][] = [];
  for (const run of runs) {
    const current = groups[groups.length - 1];
    const anchor = current?.[0];
    if (anchor !== undefined && Math.abs(anchor.y - run.y) < SAME_LINE * Math.max(anchor.size, run.size)) current!.push(run);
    else groups.push([run]);
  }
  const lines = groups.map((group) => {
    const sorted = [...group].sort((a, b) => a.x - b.x);
    const lettered = sorted.filter((run) => /\p{L}/u.test(run.text));
    return {
      runs: sorted,
      y: sorted[0]?.y ?? 0,
      size: dominantSize(sorted),
      bold: lettered.length > 0 && lettered.every((run) => run.bold),
    };
  });
  const cells = lineCells(lines);
  return lines
    .map(({ y, size, bold }, i) => ({ page: page.page, y, size, bold, cells: toCells(cells[i]!, size) }))
    .filter((line) => line.cells.length > 0);
}

/** Each cell's runs joined into its text; a gap wider than a word space between two runs is a space. */
function toCells(cells: readonly (readonly PlacedRun[])[], size: number): PdfCell[] {
  return cells
    .map((runs) => {
      let text = '';
      let end = runs[0]?.x ?? 0;
      for (const run of runs) {
        const gap = run.x - end;
        if (text !== '' && gap > WORD_GAP * size && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
        text += run.text;
        end = Math.max(end, run.x + run.width);
      }
      return { text: normaliseWhitespace(text), x: runs[0]?.x ?? 0, end };
    })
    .filter((cell) => cell.text !== '');
}

function dominantSize(runs: readonly PdfRun[]): number {
  const chars = new Map<number, number>();
  for (const run of runs) chars.set(roundSize(run.size), (chars.get(roundSize(run.size)) ?? 0) + run.text.length);
  return [...chars].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
}

/** Sizes compared to half a point: 11 and 11.04 are one size. */
export function roundSize(size: number): number {
  return Math.round(size * 2) / 2;
}
