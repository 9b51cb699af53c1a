/**
 * Ranges and bounds a text states, as tables and rules write them: "61 – 65", "$1,000 to $5,000", ">90",
 * "≤ 20", "76 and above", "80 and below", "above $10,000", "more than one", "up to 60 days", "at least 18".
 * Each is an interval over plain numbers (currency signs, thousands separators and units dropped).
 */
export interface NumberRange {
  readonly low: number;
  readonly high: number;
  /** Whether the ends themselves belong to the range ("above 90" does not hold 90; "90 and above" does). */
  readonly lowOpen: boolean;
  readonly highOpen: boolean;
}

const SMALL_NUMBERS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

const NUM = String.raw`(?:[$€£]\s?)?(\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const UNIT = String.raw`(?:\s?(?:%|[a-z/]{1,12}(?:\s(?:old|of age))?))?`;

function value(raw: string): number {
  const word = SMALL_NUMBERS[raw.toLowerCase()];
  return word ?? Number(raw.replace(/,/g, ''));
}

const BETWEEN = new RegExp(String.raw`${NUM}${UNIT}\s*(?:–|—|-|to|and)\s*${NUM}`, 'gi');
const COMPARED = /(?:^|[^\w])(>=|<=|≥|≤|>|<)\s*(?:[$€£]\s?)?(\d[\d,]*(?:\.\d+)?)/g;
const TRAILING = new RegExp(
  String.raw`${NUM}${UNIT}\s+(?:years?\s+old\s+)?(?:and|or)\s+(above|over|older|more|higher|below|under|younger|less|lower|fewer)\b`,
  'gi',
);
const LEADING = new RegExp(
  String.raw`\b(more than|greater than|above|over|exceeding|in excess of|at least|not less than|minimum of|from|less than|fewer than|below|under|up to|not exceeding|not more than|at most|maximum of)\s+${NUM}`,
  'gi',
);

/** Every range or bound the text states, in no particular order. */
export function rangesIn(text: string): NumberRange[] {
  const out: NumberRange[] = [];
  for (const m of text.matchAll(BETWEEN)) {
    const a = value(m[1] as string);
    const b = value(m[2] as string);
    // "2 and 3" in prose is two numbers, not a range, unless the first is smaller and the joiner a dash or "to".
    if (!(a < b)) continue;
    if (/\band\b/i.test(m[0]) && !/between\s*$/i.test(text.slice(0, m.index))) continue;
    out.push({ low: a, high: b, lowOpen: false, highOpen: false });
  }
  for (const m of text.matchAll(COMPARED)) {
    const n = value(m[2] as string);
    const op = m[1] as string;
    if (op === '>' || op === '>=' || op === '≥') out.push({ low: n, high: Infinity, lowOpen: op === '>', highOpen: false });
    else out.push({ low: -Infinity, high: n, lowOpen: false, highOpen: op === '<' });
  }
  for (const m of text.matchAll(TRAILING)) {
    const n = value(m[1] as string);
    const up = /above|over|older|more|higher/i.test(m[2] as string);
    out.push(
      up ? { low: n, high: Infinity, lowOpen: false, highOpen: false } : { low: -Infinity, high: n, lowOpen: false, highOpen: false },
    );
  }
  for (const m of text.matchAll(LEADING)) {
    const n = value(m[2] as string);
    const phrase = (m[1] as string).toLowerCase();
    const up = /more|greater|above|over|exceeding|excess|at least|not less|minimum|from/.test(phrase);
    const open = /more|greater|above|over|exceeding|excess|less than|fewer|below|under/.test(phrase);
    out.push(up ? { low: n, high: Infinity, lowOpen: open, highOpen: false } : { low: -Infinity, high: n, lowOpen: false, highOpen: open });
  }
  return out;
}

/** Whether x lies in the range. */
export function inRange(range: NumberRange, x: number): boolean {
  const aboveLow = range.lowOpen ? x > range.low : x >= range.low;
  const belowHigh = range.highOpen ? x < range.high : x <= range.high;
  return aboveLow && belowHigh;
}

/**
 * The figures a question names, as numbers: digits only (a written "one" is usually an article: "in one policy
 * year"), currency and thousands separators dropped; years and ages alike.
 */
export function figuresIn(text: string): number[] {
  const out: number[] = [];
  for (const [raw] of text.matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
    const n = Number(raw.replace(/,(?=\d{3}\b)/g, '').replace(/,$/, ''));
    if (Number.isFinite(n) && !out.includes(n)) out.push(n);
  }
  return out;
}

/** How a fact's ranges meet a question's figures: `holds` when a stated range holds one, `misses` when it states ranges but none holds any. */
export function rangeFit(figures: readonly number[], text: string): 'holds' | 'misses' | 'none' {
  if (figures.length === 0) return 'none';
  const ranges = rangesIn(text);
  if (ranges.length === 0) return 'none';
  return ranges.some((r) => figures.some((x) => inRange(r, x))) ? 'holds' : 'misses';
}
