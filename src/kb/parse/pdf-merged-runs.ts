/** The part of a text run that placing cells needs: where it starts and how far it reaches. */
export interface PlacedRun {
  readonly text: string;
  readonly x: number;
  readonly width: number;
}

/** Helvetica's advance widths (per 1000 em) for ASCII space to tilde: proportions to place characters within a run. */
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278,
  278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,
  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const OTHER_WIDTH = 556;
/** How far (in font sizes) a space may sit from a column for the run to be cut there. */
const REACH = 0.5;

/**
 * Cuts a run that spans columns into one run per column, at the spaces nearest to each column's start.
 *
 * pdf.js joins two cells into one run, with a space between, when they are in one font and less than 0.6 em
 * apart, as in a browser's table printed without tags. Where each character sits inside the run is not given,
 * so it is estimated from Helvetica's proportions, scaled to the run's width; a cut lands only where a space
 * is within half an em of the column. Null when the run spans no column or a column has no space near it.
 */
export function cutAtColumns(run: PlacedRun, columns: readonly number[], size: number, tolerance: number): PlacedRun[] | null {
  const end = run.x + run.width;
  const inside = columns.filter((c) => c > run.x + tolerance && c < end - tolerance);
  if (inside.length === 0) return null;
  const widths = [...run.text].map((char) => ASCII_WIDTHS[(char.codePointAt(0) ?? 0) - 32] ?? OTHER_WIDTH);
  const scale = run.width / widths.reduce((sum, w) => sum + w, 0);
  const chars = [...run.text];
  const starts: number[] = [];
  widths.reduce((x, w) => (starts.push(x), x + w * scale), run.x);
  const cuts: number[] = [];
  for (const column of inside) {
    let best = -1;
    chars.forEach((char, i) => {
      if (char !== ' ' || i + 1 >= chars.length || cuts.some((cut) => cut >= i)) return;
      if (best < 0 || Math.abs(starts[i + 1]! - column) < Math.abs(starts[best + 1]! - column)) best = i;
    });
    if (best < 0 || Math.abs(starts[best + 1]! - column) > REACH * size) return null;
    cuts.push(best);
  }
  const pieces: PlacedRun[] = [];
  [-1, ...cuts].forEach((cut, k) => {
    const from = cut + 1;
    const to = cuts[k] ?? chars.length;
    const x = k === 0 ? run.x : inside[k - 1]!;
    const stop = k < cuts.length ? starts[to]! : end;
    pieces.push({ text: chars.slice(from, to).join('').trim(), x, width: Math.max(0, stop - x) });
  });
  return pieces.every((piece) => piece.text !== '') ? pieces : null;
}
