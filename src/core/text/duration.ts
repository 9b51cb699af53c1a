const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * Seconds in a duration as people write them: "90s", "30m", "6h", "1d", "2w", or combined ("1h30m").
 * Throws a message naming the accepted forms for anything else.
 */
export function parseDuration(text: string): number {
  const compact = text.replace(/\s+/g, '').toLowerCase();
  const parts = [...compact.matchAll(/(\d+)([smhdw])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== compact)
    throw new Error(`"${text}" is not a duration: write it as 30m, 6h, 1d or 1w`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * (UNITS[unit as string] as number), 0);
}

/** A duration as people read it, in its largest whole unit: "1d", "6h", "90s". */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    const size = UNITS[unit] as number;
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
