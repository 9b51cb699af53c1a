import { describe, expect, it } from 'vitest';

import { csvCell, csvRow } from '../../../src/console/pages/interactions-export.js';
import { containsPattern } from '../../../src/console/sql-parts.js';

describe('CSV cells', () => {
  it('quote commas, quotes and line breaks (RFC 4180), doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvRow([1, null, undefined, 'x'])).toBe('1,,,x\r\n');
  });

  it('defuse what a spreadsheet would run as a formula, but leave numbers alone', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd']) expect(csvCell(formula).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('text search patterns', () => {
  it('escape LIKE wildcards and the escape character itself', () => {
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('C:\\dir')).toBe('%C:\\\\dir%');
  });
});
