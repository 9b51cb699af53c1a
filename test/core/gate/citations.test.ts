import { describe, expect, it } from 'vitest';

import { selectCitations } from '../../../src/core/gate/citations.js';
import { analyseQuestion } from '../../../src/core/text/analyse-question.js';
import { fact, vocabulary } from './fixtures.js';

const POLICY = { max: 3, minShareOfTop: 0.5, minCoverageOfTop: 0.8 };
const q = analyseQuestion('Should I stay at home with the flu?');
const vocab = vocabulary([], { flu: 4, stay: 1, home: 1 });

describe('selectCitations', () => {
  it('cites runners-up that cover the question comparably, never ones that share a word from another topic', () => {
    const best = fact('Stay at home when you have the flu.', 0.9, 1);
    const alsoCovers = fact('With flu, stay home and rest.', 0.8, 2);
    const unrelated = fact('Includes eligible Mobile Inpatient Care @ Home stays.', 0.7, 3);
    expect(selectCitations([best, alsoCovers, unrelated], q, vocab, POLICY).map((f) => f.factId)).toEqual([1, 2]);
  });
  it('cites facts of the best fact’s passage that score well enough, whatever they cover', () => {
    const best = fact('Stay at home when you have the flu.', 0.9, 1, 'guide.md › Flu');
    const sameSection = fact('Drink plenty of water.', 0.6, 2, 'guide.md › Flu');
    const weak = fact('Rest for a week.', 0.3, 3, 'guide.md › Flu');
    expect(selectCitations([best, sameSection, weak], q, vocab, POLICY).map((f) => f.factId)).toEqual([1, 2]);
  });
  it('cites at most max, and nothing without evidence', () => {
    const ranked = [0.9, 0.85, 0.8, 0.75].map((s, i) => fact('Stay at home with the flu.', s, i + 1));
    expect(selectCitations(ranked, q, vocab, POLICY)).toHaveLength(3);
    expect(selectCitations(ranked, q, vocab, { ...POLICY, max: 1 })).toHaveLength(1);
    expect(selectCitations([], q, vocab, POLICY)).toEqual([]);
  });
});

describe('selectCitations: the lead quote', () => {
  it('quotes first the fact of the best passage that states the question itself, not through its heading', () => {
    const q = analyseQuestion('Who needs to pay Additional Premiums?');
    const heading = 'Who needs to pay Additional Premiums?';
    const withHeading = (text: string, score: number, id: number) => ({
      ...fact(text, score, id, 'booklet › 3.3'),
      heading,
      terms: new Set([...fact(text, score, id).terms, 'need', 'pay', 'additional', 'premium']),
    });
    const mentions = withHeading('Premium subsidies also apply to the Additional Premiums.', 1, 1);
    const answers = withHeading('Only those with serious conditions need to pay an Additional Premium of 30%.', 1, 2);
    const cited = selectCitations([mentions, answers], q, vocabulary([]), POLICY);
    expect(cited.map((f) => f.factId)).toEqual([2, 1]);
  });
});
