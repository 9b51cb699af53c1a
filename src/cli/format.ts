/** Numbers and counts as people read them in a terminal (JSON output keeps the raw values). */

/** "1 day", "30 days", "1,204 facts": the count with thousands separators and the noun in the right number. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? singular : plural}`;
}

/** A share or score to `digits` decimals, without binary-fraction noise (0.052000000000000046 → "0.052"). */
export function decimal(x: number, digits = 3): string {
  return Number(x.toFixed(digits)).toString();
}

/** Milliseconds as seconds with one decimal: "2.4 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
