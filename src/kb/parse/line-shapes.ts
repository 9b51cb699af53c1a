import { wordCount } from './split-sentences.js';

/** "- x", "* x", "• x", "a) x", "(b) x", "1. x", "1) x", "(2) x", "i. x", "iv) x". */
export const LIST_ITEM = /^(?:[-*•◦▪]|\(?[a-z]\)|\((?:\d{1,3}|[ivx]{1,4})\)|(?:\d{1,3}|[ivx]{1,4})[.)])\s+/i;
/** "3.2 What is…", "4. Government subsidies": the number fixes the nesting depth. */
export const NUMBERED_HEADING = /^(\d{1,2}(?:\.\d{1,2})+\.?|\d{1,2}\.)\s+[\p{Lu}\p{N}"“(]/u;
/** "6", "Page 6", "p. 6 of 31", "6/31", "- 6 -". */
export const PAGE_NUMBER = /^(?:(?:page|p\.)\s*)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$/i;

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const AMOUNT = String.raw`[-–+]?(?:(?:S|US|A|C|HK|NZ)?[$€£¥₹]|(?:SGD|USD|EUR|GBP|AUD|INR|RM)\s?)\s?(?:${NUMBER})`;
/** What a value line starts with: an amount, a percentage or a date. */
const VALUE_START = new RegExp(
  [
    String.raw`^(?:(?:up to|from|at least|at most|max\.?|min\.?|about|over|under)\s+)?${AMOUNT}`,
    String.raw`^[-+]?(?:${NUMBER})\s?%`,
    String.raw`^\d{1,2}(?:st|nd|rd|th)?\s+${MONTH}(?:\s+\d{4})?(?![\p{L}])`,
    String.raw`^${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b`,
    String.raw`^\d{4}-\d{2}-\d{2}\b`,
    String.raw`^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b`,
  ].join('|'),
  'iu',
);
/** A count and its lower-case unit: "60 days", "3 - 5 years", "90 km/h" (not "36 These signs…", "10 Ubi Avenue"). */
const COUNT = new RegExp(String.raw`^(?:up to\s+)?(?:${NUMBER})(?:\s?[-–]\s?(?:${NUMBER}))?\s\p{Ll}[\p{L}/]*`, 'u');
/** Values that are words: "No Limit", "Nil", "Not covered", "Yes", "N.A.". */
const VALUE_WORDS =
  /^(?:no limit|unlimited|nil|none|not covered|covered|not applicable|n\/a|n\.a|free(?: of charge)?|included|not included|yes|no)[\s.*†‡]*$/i;
const MAX_VALUE_WORDS = 8;
const MAX_LABEL_WORDS = 10;
/** A number alone: a page number, a footnote mark, or a cell of a flattened table ("51", "1,250", "0.5"). */
export const BARE_NUMBER = /^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
/** "Table B: Premiums…", "Table 3. Results", "Table 4 – Fees": a table's caption (not "Table 1 A/B/C", a row naming a table). */
export const TABLE_CAPTION = /^table\s+[\p{L}\p{N}][\p{L}\p{N}.-]*\s*[:.–—-]\s+\S/iu;
const BAND_NUMBER = String.raw`\d+(?:[.,]\d+)*`;
/** A band of plain numbers, no unit: "1 – 20", "21-30", ">90", "≥ 65", "65+", "80 and below", "81 and above", "under 18". */
const BAND = new RegExp(
  [
    String.raw`^${BAND_NUMBER}\s*(?:[-–—]|to)\s*${BAND_NUMBER}$`,
    String.raw`^(?:[<>≤≥]=?)\s*${BAND_NUMBER}$`,
    String.raw`^${BAND_NUMBER}\s*\+$`,
    String.raw`^${BAND_NUMBER}\s+(?:and|or)\s+(?:below|above|under|over|older|younger|less|more|fewer|higher|lower)$`,
    String.raw`^(?:below|above|under|over|up to|less than|more than|at least|at most)\s+${BAND_NUMBER}$`,
  ].join('|'),
  'iu',
);

/** A band of numbers ("1 – 20", ">90", "80 and below"): in a table, a row or column label, not a value. */
export function isBand(line: string): boolean {
  return BAND.test(line);
}

/** Strips a list marker ("- ", "(b) ", "2. ") from the start of a line. */
export function withoutListMarker(line: string): string {
  const marker = LIST_ITEM.exec(line);
  return marker === null ? line : line.slice(marker[0].length);
}

/**
 * A line that states a value on its own: it starts with an amount, percentage,
 * date or count ("$200,000", "30%", "1 April 2025", "60 days per year") or is a
 * value word ("No Limit"), and is short (up to 8 words). A sentence that merely
 * begins with a number ("102 A composition fine of …") is not one.
 */
export function isValueLine(line: string): boolean {
  if (line === '' || wordCount(line) > MAX_VALUE_WORDS || NUMBERED_HEADING.test(line) || PAGE_NUMBER.test(line) || isBand(line))
    return false;
  return VALUE_WORDS.test(line) || VALUE_START.test(line) || COUNT.test(line);
}

/**
 * A line that can name a value: short (up to 10 words), holding a word, not
 * ending a sentence, and not itself a value; or a band of numbers ("31 – 40").
 */
export function isLabelLine(line: string): boolean {
  const text = withoutListMarker(line);
  if (isBand(text)) return true;
  return (
    /\p{L}{2}/u.test(text) && wordCount(text) <= MAX_LABEL_WORDS && !/[.;!?]$/.test(text) && !isValueLine(text) && !PAGE_NUMBER.test(text)
  );
}
