/** Folds every run of whitespace (including non-breaking and zero-width spaces) to one space and trims. */
export function normaliseWhitespace(text: string): string {
  return text
    .replace(/[\u200B\u200C\u200D\uFEFF\u00AD]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
