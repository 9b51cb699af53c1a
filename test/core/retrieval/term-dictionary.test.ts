import { describe, expect, it } from 'vitest';

import { TermDictionary } from '../../../src/core/retrieval/term-dictionary.js';

describe('a term dictionary in typed arrays', () => {
  it('finds every term by its id and name, including non-ASCII ones, and nothing else', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `term${i}`).concat(['', 'café', '医疗', 'naïve', '😀']);
    const dictionary = TermDictionary.of(names);
    expect(dictionary.size).toBe(names.length);
    names.forEach((name, id) => {
      expect(dictionary.id(name)).toBe(id);
      expect(dictionary.name(id)).toBe(name);
    });
    for (const absent of ['term5000', 'cafe', 'Café', '医', 'term1 ', 'x']) expect(dictionary.id(absent)).toBeUndefined();
  });

  it('is rebuilt from its arrays alone (as handed over by a worker or read from a snapshot)', () => {
    const dictionary = TermDictionary.of(['leave', 'parking', 'permit']);
    const copy = new TermDictionary(structuredClone(dictionary.arrays));
    expect(copy.id('parking')).toBe(1);
    expect(copy.name(2)).toBe('permit');
    expect(TermDictionary.of([]).id('leave')).toBeUndefined();
  });
});
