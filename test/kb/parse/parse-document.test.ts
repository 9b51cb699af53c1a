import { describe, expect, it } from 'vitest';

import { formatFromPath, parseDocument, type DocumentFormat } from '../../../src/kb/parse/index.js';

describe('formatFromPath', () => {
  it('maps known extensions case-insensitively and rejects others', () => {
    expect(formatFromPath('notes.txt')).toBe('text');
    expect(formatFromPath('/a/b/notes.TEXT')).toBe('text');
    expect(formatFromPath('README.md')).toBe('markdown');
    expect(formatFromPath('docs\\guide.markdown')).toBe('markdown');
    expect(formatFromPath('page.html')).toBe('html');
    expect(formatFromPath('page.HTM')).toBe('html');
    expect(formatFromPath('report.pdf')).toBeNull();
    expect(formatFromPath('Makefile')).toBeNull();
    expect(formatFromPath('dir.md/file')).toBeNull();
  });
});

describe('parseDocument', () => {
  const samples: Record<DocumentFormat, string> = {
    text: 'COVERAGE\nPremiums are paid yearly. Claims take 30 days.\n- Ward A costs more.\n\nREBATES\nRebates start at age 66.',
    markdown:
      '# Coverage\n\nPremiums are paid yearly. Claims take 30 days.\n\n- Ward A costs more.\n\n# Rebates\n\nRebates start at age 66.',
    html: '<h1>Coverage</h1><p>Premiums are paid yearly. Claims take 30 days.</p><ul><li>Ward A costs more.</li></ul><h1>Rebates</h1><p>Rebates start at age 66.</p>',
  };

  for (const [format, content] of Object.entries(samples) as Array<[DocumentFormat, string]>) {
    it(`gives the same facts, headings and positions from 0 for ${format}`, () => {
      const doc = parseDocument(content, format);
      expect(doc.facts.map((fact) => fact.text)).toEqual([
        'Premiums are paid yearly.',
        'Claims take 30 days.',
        'Ward A costs more.',
        'Rebates start at age 66.',
      ]);
      expect(doc.facts.map((fact) => fact.position)).toEqual([0, 1, 2, 3]);
      expect(doc.facts.map((fact) => fact.heading?.toUpperCase())).toEqual(['COVERAGE', 'COVERAGE', 'COVERAGE', 'REBATES']);
    });
  }

  it('returns no facts for empty input and ignores a byte-order mark', () => {
    for (const format of ['text', 'markdown', 'html'] as const) {
      expect(parseDocument('', format)).toEqual({ title: null, facts: [] });
      expect(parseDocument('  \n\n ', format).facts).toEqual([]);
    }
    expect(parseDocument('\uFEFF# Title here\n\nBody text is here.', 'markdown').title).toBe('Title here');
  });
});
