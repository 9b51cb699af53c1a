import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { decodeText } from '../../../src/kb/parse/decode-text.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decoding text files', () => {
  it('UTF-8 text passes whole: accents, CJK, emoji, tabs, form feeds, CRLF, a BOM', () => {
    const text = '\uFEFFCafé crème — 東京 🚀\tcolumn\r\nPage two\f\n';
    expect(decodeText(Buffer.from(text))).toEqual({ ok: true, text });
  });

  it('random bytes are not text: most of them are undecodable or control characters', () => {
    const bytes = randomBytes(64 * 1024).map((byte) => byte || 1);
    const decoded = decodeText(bytes);
    expect(decoded.ok).toBe(false);
    const percent = Number(/^not text \((\d+)% undecodable or control characters\)/.exec(decoded.ok ? '' : decoded.reason)?.[1]);
    expect(percent).toBeGreaterThan(50);
  });

  it('NUL bytes are binary (or UTF-16)', () => {
    expect(decodeText(Buffer.from('hello', 'utf16le'))).toEqual({ ok: false, reason: 'binary content (NUL bytes), not text' });
  });

  it('text in a legacy 8-bit encoding passes below 5% of undecodable characters and is refused above', () => {
    // 1 Latin-1 "é" in 25 characters (4%): passes, with U+FFFD in its place, as before.
    expect(decodeText(latin1(`${'a'.repeat(24)}é`))).toEqual({ ok: true, text: `${'a'.repeat(24)}\uFFFD` });
    // Greek in ISO 8859-7 or, here, 1 in 10 Latin-1 letters: mostly mojibake, refused with a hint.
    expect(decodeText(latin1(`${'a'.repeat(9)}é`.repeat(10)))).toEqual({
      ok: false,
      reason:
        'not text (10% undecodable or control characters): binary content, or text in an encoding other than UTF-8 (save it as UTF-8)',
    });
  });

  it('control characters other than tab, newline, carriage return and form feed count; 5% exactly passes', () => {
    expect(decodeText(Buffer.from(`${'a'.repeat(19)}\x1b`)).ok).toBe(true);
    expect(decodeText(Buffer.from(`${'a'.repeat(18)}\x1b\x07`))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not text \(10% /),
    });
    expect(decodeText(Buffer.from(`${'a'.repeat(37)}\x7f\u0085`))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not text \(5\.1% /),
    });
  });
});
