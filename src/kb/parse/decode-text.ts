/** A text file's content, or why it is not text. */
export type DecodedText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * The share of characters that may be undecodable or control characters in a text file. UTF-8 text has none
 * (a stray escape sequence or form feed aside); random or compressed bytes decode to well over half of them.
 * Text saved in a legacy 8-bit encoding has one per accented letter: a few percent in most Western European
 * text, which passes as before; beyond 5% it would be stored as mojibake, and is refused instead.
 */
export const MAX_NOT_TEXT_SHARE = 0.05;

/**
 * Decodes a text file as UTF-8. Refused: NUL bytes (binary, or UTF-16), and more than
 * MAX_NOT_TEXT_SHARE of the characters being U+FFFD (bytes that are not UTF-8) or control
 * characters other than tab, line feed, carriage return and form feed. Pure.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.includes(0)) return { ok: false, reason: 'binary content (NUL bytes), not text' };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const share = text.length === 0 ? 0 : notTextCount(text) / text.length;
  if (share > MAX_NOT_TEXT_SHARE) {
    const percent = share >= 0.1 ? Math.round(share * 100) : (share * 100).toFixed(1);
    return {
      ok: false,
      reason: `not text (${percent}% undecodable or control characters): binary content, or text in an encoding other than UTF-8 (save it as UTF-8)`,
    };
  }
  return { ok: true, text };
}

/** Undecodable (U+FFFD) and control characters other than tab, line feed, form feed and carriage return. */
export function notTextCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || (c >= 0x7f && c <= 0x9f)) count += 1;
  }
  return count;
}
