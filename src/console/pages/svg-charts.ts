import { html, type Html } from './html.js';

export interface Series {
  readonly name: string;
  /** One value per label; null where there is none (a gap in a line). */
  readonly values: readonly (number | null)[];
  /** CSS class giving the colour (s-answer, s-abstain, s-0 … s-5). */
  readonly className: string;
}

interface Frame {
  readonly title: string;
  readonly labels: readonly string[];
  readonly series: readonly Series[];
  /** How a value reads on the axis and in tooltips. */
  readonly format?: (value: number) => string;
  /** Fixed top of the y axis (e.g. 1 for rates); otherwise the data's maximum. */
  readonly yMax?: number;
  readonly width?: number;
  readonly height?: number;
  /** At most this many axis labels are printed (long labels need fewer). @default 12 */
  readonly maxLabels?: number;
}

const PAD = { left: 48, right: 12, top: 10, bottom: 26 };

/**
 * A stacked bar chart, as inline SVG (no script; each bar has a <title> for
 * its value). Labels are thinned so that at most `maxLabels` (about twelve) are printed.
 */
export function stackedBars(frame: Frame): Html {
  const { width, height, plotW, plotH, format } = dimensions(frame);
  const totals = frame.labels.map((_, i) => frame.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const yMax = niceMax(frame.yMax ?? Math.max(1, ...totals));
  const step = plotW / Math.max(1, frame.labels.length);
  const barW = Math.max(2, step * 0.7);
  const bars = frame.labels.map((label, i) => {
    let base = 0;
    return frame.series.map((s) => {
      const value = s.values[i] ?? 0;
      const h = (value / yMax) * plotH;
      const y = PAD.top + plotH - ((base + value) / yMax) * plotH;
      base += value;
      return value > 0
        ? html`<rect
            class="${s.className}"
            x="${(PAD.left + i * step + (step - barW) / 2).toFixed(1)}"
            y="${y.toFixed(1)}"
            width="${barW.toFixed(1)}"
            height="${h.toFixed(1)}"
            ><title>${label} ${s.name}: ${format(value)}</title></rect
          >`
        : '';
    });
  });
  return chart(frame, width, height, yMax, format, bars, step);
}

/** Lines over the labels, one per series; a null value breaks its line. */
export function lines(frame: Frame): Html {
  const { width, height, plotW, plotH, format } = dimensions(frame);
  const values = frame.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const yMax = niceMax(frame.yMax ?? Math.max(1e-9, ...values));
  const step = plotW / Math.max(1, frame.labels.length);
  const x = (i: number) => PAD.left + i * step + step / 2;
  const y = (v: number) => PAD.top + plotH - (v / yMax) * plotH;
  const drawn = frame.series.map((s) => {
    const runs: string[][] = [[]];
    s.values.forEach((v, i) => (v === null ? runs.push([]) : runs[runs.length - 1]!.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`)));
    const dots = s.values.map((v, i) =>
      v === null
        ? ''
        : html`<circle class="${s.className}" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5"
            ><title>${frame.labels[i]} ${s.name}: ${format(v)}</title></circle
          >`,
    );
    return [runs.filter((r) => r.length > 1).map((r) => html`<polyline class="${s.className}" points="${r.join(' ')}" />`), dots];
  });
  return chart(frame, width, height, yMax, format, drawn, step);
}

/** A small horizontal bar for a table cell: positive values to the right, negative in the refusal colour. */
export function inlineBar(value: number, max: number, width = 120): Html {
  const w = max > 0 ? Math.min(1, Math.abs(value) / max) * width : 0;
  return html`<svg width="${width}" height="10" role="img" aria-label="${String(value)}">
    <rect class="bar${value < 0 ? ' neg' : ''}" x="0" y="1" width="${w.toFixed(1)}" height="8" />
  </svg>`;
}

function dimensions(frame: Frame) {
  const width = frame.width ?? 720;
  const height = frame.height ?? 200;
  return {
    width,
    height,
    plotW: width - PAD.left - PAD.right,
    plotH: height - PAD.top - PAD.bottom,
    format: frame.format ?? ((v: number) => String(Math.round(v * 100) / 100)),
  };
}

function chart(
  frame: Frame,
  width: number,
  height: number,
  yMax: number,
  format: (v: number) => string,
  marks: unknown,
  step: number,
): Html {
  const plotH = height - PAD.top - PAD.bottom;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const y = PAD.top + plotH - f * plotH;
    return html`<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" /><text
        x="${PAD.left - 6}"
        y="${(y + 4).toFixed(1)}"
        text-anchor="end"
        >${format(yMax * f)}</text
      >`;
  });
  const every = Math.max(1, Math.ceil(frame.labels.length / (frame.maxLabels ?? 12)));
  const labels = frame.labels.map((label, i) =>
    i % every === 0
      ? html`<text x="${(PAD.left + i * step + step / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${label}</text>`
      : '',
  );
  return html`<figure class="chart">
    <svg viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${frame.title}">
      <title>${frame.title}</title>
      ${ticks}
      <line class="axis" x1="${PAD.left}" x2="${width - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}" />
      ${marks}${labels}
    </svg>
    <figcaption class="legend">${frame.series.map((s) => html`<span><i class="key ${s.className}"></i>${s.name}</span>`)}</figcaption>
  </figure>`;
}

/** The axis top: the maximum rounded up to 1, 2 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * power >= max) ?? 10) * power;
}
