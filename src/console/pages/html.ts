/** Markup that is already safe: produced by `html` or deliberately trusted. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/**
 * A tagged template that escapes every interpolated value unless it is Html;
 * arrays are joined, and null, undefined and false render nothing. Every page
 * of the console is built with it, so stored questions cannot inject markup.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A URL path with query parameters (empty ones left out), for links that keep the current filters. */
export function href(path: string, params: Record<string, string | number | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export function formatPercent(x: number | null | undefined): string {
  return x === null || x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`;
}

export function formatMs(x: number | null | undefined): string {
  if (x === null || x === undefined) return '–';
  return x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 1 : 0)} ms`;
}

export function formatNumber(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined ? '–' : String(Math.round(x * 10 ** digits) / 10 ** digits);
}

/** A UTC timestamp as people read it: 2026-11-24 08:12 UTC. */
export function formatTime(value: Date | string): string {
  const iso = (value instanceof Date ? value : new Date(value)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
