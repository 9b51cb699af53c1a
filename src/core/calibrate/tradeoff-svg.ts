import type { SweepPoint } from './threshold-sweep.js';

export interface TradeoffMark {
  readonly label: string;
  readonly point: SweepPoint;
}

export interface TradeoffChart {
  readonly title: string;
  readonly sweep: readonly SweepPoint[];
  /** Points to mark and name (the current threshold, the recommended one). */
  readonly marks: readonly TradeoffMark[];
  /** A vertical guide at the target abstention. */
  readonly targetAbstention?: number;
  readonly xLabel?: string;
  readonly yLabel?: string;
  /** How a mark names its y and x shares. @default { y: 'answered', x: 'abstained' } */
  readonly pointWords?: { readonly y: string; readonly x: string };
}

const W = 640;
const H = 480;
const PAD = { left: 70, right: 30, top: 50, bottom: 60 };
const COLOURS = ['#d62728', '#1f77b4', '#2ca02c'];

/**
 * The refusal/accuracy trade-off (as in the L2R paper's figure): one point per
 * threshold, abstention on x and answered-right on y, the marked thresholds
 * named (any pair of shares plots alike: the grounding check's passed/flagged
 * names its axes and marks). A plain SVG document, readable in any browser.
 */
export function renderTradeoffSvg(chart: TradeoffChart): string {
  const x = (v: number) => PAD.left + v * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - v * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${x(t)}" y1="${y(0)}" x2="${x(t)}" y2="${y(1)}" stroke="#eee"/><line x1="${x(0)}" y1="${y(t)}" x2="${x(1)}" y2="${y(t)}" stroke="#eee"/>` +
        `<text x="${x(t)}" y="${y(0) + 18}" text-anchor="middle">${pct(t)}</text><text x="${x(0) - 8}" y="${y(t) + 4}" text-anchor="end">${pct(t)}</text>`,
    )
    .join('');
  const line = chart.sweep.map((p) => `${x(p.abstained).toFixed(1)},${y(p.answeredRight).toFixed(1)}`).join(' ');
  const target =
    chart.targetAbstention === undefined
      ? ''
      : `<line x1="${x(chart.targetAbstention)}" y1="${y(0)}" x2="${x(chart.targetAbstention)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 4"/>` +
        `<text x="${x(chart.targetAbstention) + 4}" y="${y(1) + 12}" fill="#666">target ${pct(chart.targetAbstention)}</text>`;
  const marks = chart.marks
    .map((m, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const px = x(m.point.abstained);
      const py = y(m.point.answeredRight);
      const words = chart.pointWords ?? { y: 'answered', x: 'abstained' };
      const text = `${m.label}: t=${m.point.threshold.toFixed(2)} (${pct(m.point.answeredRight)} ${words.y}, ${pct(m.point.abstained)} ${words.x})`;
      // Earlier marks are drawn larger, so a later one on the same point stays visible inside it.
      return `<circle cx="${px}" cy="${py}" r="${8 - 3 * Math.min(i, 2)}" fill="${colour}"/><text x="${x(0) + 10}" y="${y(0) - 12 - 16 * i}" fill="${colour}">● ${escape(text)}</text>`;
    })
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${escape(chart.title)}</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15">${escape(chart.title)}</text>`,
    grid,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(0)}" stroke="#333"/><line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(1)}" stroke="#333"/>`,
    target,
    `<polyline points="${line}" fill="none" stroke="#444" stroke-width="1.5"/>`,
    marks,
    `<text x="${W / 2}" y="${H - 16}" text-anchor="middle">${escape(chart.xLabel ?? 'abstained where refusing is right')}</text>`,
    `<text x="18" y="${H / 2}" text-anchor="middle" transform="rotate(-90 18 ${H / 2})">${escape(chart.yLabel ?? 'answered, citing a right fact')}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

function pct(v: number): string {
  return `${Math.round(v * 100)}%`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
