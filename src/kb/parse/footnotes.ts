/** Superscript digits, as some PDFs and web pages write footnote markers. */
const SUPERSCRIPT = /[\u00B9\u00B2\u00B3\u2070\u2074-\u2079]+/g;

/**
 * A footnote marker glued to the word it annotates: one digit after a word of three or more lower-case letters
 * ("Pioneers1", "Normal ward2"), one or two after a closing bracket ("(Rehabilitative)3", "after 1950)1"), one
 * asterisk after a word or figure ("$830 per day*"; not the closing half of "**bold**"). The digit must end the word: "Class 4A", "IR8A", "B1",
 * "COVID-19", "Table 2", "3%", "km2" and "Form 12B" keep theirs.
 */
const GLUED_DIGIT = /(?<=\p{L}*\p{Ll}{3})\d(?=[\s,.;:!?)\]'"”’*]|$)/gu;
const AFTER_BRACKET = /(?<=\))\d{1,2}(?=[\s,.;:!?'"”’*]|$)/gu;
const ASTERISK = /(?<=(?:^|\s)[^\s*]*[\p{L}\p{N})])\*(?=[\s,.;:!?)]|$)/gu;

/** The text with footnote markers taken off the words they are glued to (see GLUED_DIGIT); nothing else changes. */
export function stripFootnoteMarkers(text: string): string {
  if (!/[\d*\u00B9\u00B2\u00B3\u2070\u2074-\u2079]/.test(text)) return text;
  return text.replace(SUPERSCRIPT, '').replace(GLUED_DIGIT, '').replace(AFTER_BRACKET, '').replace(ASTERISK, '');
}
