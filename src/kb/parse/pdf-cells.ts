import { cutAtColumns, type PlacedRun } from './pdf-merged-runs.js';

export type { PlacedRun } from './pdf-merged-runs.js';

/** One line's runs, left to right, and the font size its gaps are measured in. */
export interface RunLine {
  readonly runs: readonly PlacedRun[];
  readonly y: number;
  readonly size: number;
  readonly bold: boolean;
}

/** A horizontal gap wider than this many font sizes separates columns (a word space is about a quarter). */
const COLUMN_GAP = 1.5;
/** A narrower gap between two runs may still part two cells: more than this share of the font size, and no space at the seam. */
const SEAM_GAP = 0.05;
/** Lines whose baselines are closer than this many font sizes are compared for columns (the rows and header of one table). */
const BLOCK_GAP = 3.5;
/** A line this much further from a table's row than its rows are from each other is not one of its rows. */
const ROW_PITCH_SLACK = 1.15;
/** A list marker standing alone as a run ("1.", "b)", "•"): the item's text after it is not a second cell. */
const LIST_MARKER = /^(?:[-*•◦▪●○■□]|\(?[a-z]\)|\((?:\d{1,3}|[ivx]{1,4})\)|(?:\d{1,3}|[ivx]{1,4}|[a-z])[.)])$/i;
const WORDLIKE = /[\p{L}\p{N}]/u;

interface Seams {
  readonly runs: readonly PlacedRun[];
  /** Runs that start after a column-wide gap. */
  readonly hard: readonly number[];
  /** Runs that start after a narrower seam: a gap with no space on either side, not after a list marker. */
  readonly soft: readonly number[];
}

/**
 * Each line's cells, left to right, each the runs it is made of.
 *
 * A gap wider than COLUMN_GAP font sizes always parts two cells. A narrower one parts them only inside a grid:
 * a browser prints every table cell as a run of its own, often a word space or two from the next (`padding:
 * 2px`), so the gap alone cannot tell cells from words. Among nearby lines, the x where a run starts after a
 * seam on two lines or more is a column; a line whose every seam falls on a column is a row, and breaks at
 * each. A bold line (a header, its cells centred over the columns) breaks where its runs fall between
 * different columns. A run that spans columns on a line among the rows, within the table's width, is cut at
 * them (pdf-merged-runs.ts). A paragraph's styled words and a list's markers stay text.
 */
export function lineCells(lines: readonly RunLine[]): PlacedRun[][][] {
  const cells = lines.map((line) => [[...line.runs]]);
  for (const block of blocks(lines)) {
    const seams = block.map((i) => seamsOf(lines[i]!, lines[i]!.runs));
    const tol = tolerance(lines[block[0]!]!);
    const columns = sharedStarts(
      seams.map((s) => [...s.hard, ...s.soft].map((r) => s.runs[r]!.x)),
      tol,
    );
    const rows = block.map((i, k) => asRow(lines[i]!, seams[k]!, columns));
    const grid = rows.map((row) => row !== null && row.some((cell, c) => c > 0 && columns.some((x) => Math.abs(x - cell[0]!.x) <= tol)));
    const starts = rows.map((row, k) => (grid[k] ? row!.slice(1).map((cell) => cell[0]!.x) : []));
    for (const k of rowsToCut(block, grid, lines)) {
      const line = lines[block[k]!]!;
      // the columns of the rows above and below: another table in the block has columns of its own
      const above = k > 0 ? grid.lastIndexOf(true, k - 1) : -1;
      const below = grid.indexOf(true, k + 1);
      const near = distinct([...(above >= 0 ? starts[above]! : []), ...(below >= 0 ? starts[below]! : [])], tol);
      const runs = line.runs.flatMap((run) => cutAtColumns(run, near, line.size, tol) ?? [run]);
      const cut = runs.length > line.runs.length ? asRow(line, seamsOf(line, runs), near) : null;
      if (cut && cut.length > (rows[k]?.length ?? 1)) rows[k] = cut;
    }
    block.forEach((i, k) => {
      if (rows[k]) cells[i] = rows[k]!;
    });
  }
  return cells;
}

/** Runs of consecutive lines (indices, top to bottom) close enough to be one table. */
function blocks(lines: readonly RunLine[]): number[][] {
  const out: number[][] = [];
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    const current = out[out.length - 1];
    if (current && previous && previous.y - line.y <= BLOCK_GAP * Math.max(previous.size, line.size)) current.push(i);
    else out.push([i]);
  });
  return out;
}

function seamsOf(line: RunLine, runs: readonly PlacedRun[]): Seams {
  const hard: number[] = [];
  const soft: number[] = [];
  let end = runs[0] ? runs[0].x + runs[0].width : 0;
  let cell = runs[0]?.text ?? '';
  runs.forEach((run, r) => {
    if (r === 0) return;
    const gap = run.x - end;
    end = Math.max(end, run.x + run.width);
    if (gap > COLUMN_GAP * line.size) {
      hard.push(r);
      cell = run.text;
      return;
    }
    const seam = gap > SEAM_GAP * line.size && !/\s$/.test(cell) && !/^\s/.test(run.text) && !LIST_MARKER.test(cell.trim());
    if (seam) soft.push(r);
    cell = seam ? run.text : `${cell} ${run.text}`;
  });
  return { runs, hard, soft };
}

/** The x positions where a cell starts on two lines or more, ascending. */
function sharedStarts(starts: readonly number[][], tol: number): number[] {
  const seen: { x: number; lines: Set<number> }[] = [];
  starts.forEach((xs, line) => {
    for (const x of xs) {
      const match = seen.find((s) => Math.abs(s.x - x) <= tol);
      if (match) match.lines.add(line);
      else seen.push({ x, lines: new Set([line]) });
    }
  });
  return seen
    .filter((s) => s.lines.size >= 2)
    .map((s) => s.x)
    .sort((a, b) => a - b);
}

/**
 * The line's cells when it reads as a row: hard seams always part cells; soft ones only when each starts a
 * column (a bold header's: a column of its own) and every cell holds a word or a figure. Null when no seam parts it.
 */
function asRow(line: RunLine, seams: Seams, columns: readonly number[]): PlacedRun[][] | null {
  const { runs, hard, soft } = seams;
  const tol = tolerance(line);
  const split = (starts: readonly number[]) => [0, ...starts].map((from, k, all) => runs.slice(from, all[k + 1]));
  const hardOnly = hard.length > 0 ? split(hard) : null;
  if (soft.length === 0 || columns.length === 0) return hardOnly;
  const starts = [...hard, ...soft].sort((a, b) => a - b);
  const cells = split(starts);
  if (!cells.every((cell) => WORDLIKE.test(cell.map((r) => r.text).join('')))) return hardOnly;
  const columnOf = (x: number) => columns.filter((c) => c <= x + tol).length;
  const aligned = soft.every((r) => {
    const x = runs[r]!.x;
    if (columns.some((c) => Math.abs(c - x) <= tol)) return true;
    const previous = runs[[0, ...starts][starts.indexOf(r)]!]!.x;
    return line.bold && columnOf(x) > columnOf(previous);
  });
  return aligned ? cells : hardOnly;
}

/**
 * Lines of the block that may be rows with cells pdf.js ran together: the grid's rows, and lines next to one
 * (or to another such line) no further than the grid's rows are apart and within the grid's left and right edges.
 */
function rowsToCut(block: readonly number[], grid: readonly boolean[], lines: readonly RunLine[]): number[] {
  const gridded = block.flatMap((i, k) => (grid[k] ? [k] : []));
  if (gridded.length < 2) return [];
  const pitch = Math.max(
    ...gridded.slice(1).flatMap((k, n) => (k === gridded[n]! + 1 ? [lines[block[k - 1]!]!.y - lines[block[k]!]!.y] : [])),
    0,
  );
  if (pitch === 0) return [];
  const edges = gridded.flatMap((k) => lines[block[k]!]!.runs);
  const left = Math.min(...edges.map((run) => run.x)) - tolerance(lines[block[0]!]!);
  const right = Math.max(...edges.map((run) => run.x + run.width)) + tolerance(lines[block[0]!]!);
  const near = new Set(gridded);
  const candidates: number[] = [...gridded];
  const reach = (k: number, from: number) => {
    if (k < 0 || k >= block.length || near.has(k)) return false;
    const line = lines[block[k]!]!;
    if (Math.abs(lines[block[from]!]!.y - line.y) > pitch * ROW_PITCH_SLACK) return false;
    if (line.runs.some((run) => run.x < left || run.x + run.width > right)) return false;
    near.add(k);
    candidates.push(k);
    return true;
  };
  for (const k of gridded) {
    for (let up = k; reach(up - 1, up); up--);
    for (let down = k; reach(down + 1, down); down++);
  }
  return candidates;
}

/** Positions, ascending, one of each within the tolerance. */
function distinct(xs: readonly number[], tol: number): number[] {
  return [...xs].sort((a, b) => a - b).filter((x, i, all) => i === 0 || x - all[i - 1]! > tol);
}

function tolerance(line: RunLine): number {
  return Math.max(1, 0.1 * line.size);
}
