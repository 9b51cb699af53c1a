import { describe, expect, it } from 'vitest';

import { stripFootnoteMarkers } from '../../../src/kb/parse/footnotes.js';

describe('stripFootnoteMarkers', () => {
  it('takes footnote markers off words, brackets and figures', () => {
    expect(stripFootnoteMarkers('Merdeka Generation and Pioneers1 receive')).toBe('Merdeka Generation and Pioneers receive');
    expect(stripFootnoteMarkers('Normal ward2: $830 per day*')).toBe('Normal ward: $830 per day');
    expect(stripFootnoteMarkers('Community hospital (Rehabilitative)3: $370')).toBe('Community hospital (Rehabilitative): $370');
    expect(stripFootnoteMarkers('for those born in or after 1950)1')).toBe('for those born in or after 1950)');
    expect(stripFootnoteMarkers('multiple primary cancers6')).toBe('multiple primary cancers');
    expect(stripFootnoteMarkers('Premium rebates² apply')).toBe('Premium rebates apply');
  });

  it('keeps digits that are part of a name, a code or a unit', () => {
    const kept = 'Class 4A and B1 and COVID-19 and Table 2 and 3% and km2 and Form 12B and IR8A and 2*3';
    expect(stripFootnoteMarkers(kept)).toBe(kept);
    expect(stripFootnoteMarkers('*Note: all')).toBe('*Note: all');
  });
});
