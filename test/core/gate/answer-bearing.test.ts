import { describe, expect, it } from 'vitest';

import { isFragment, numberFit, rankAnswerBearing } from '../../../src/core/gate/answer-bearing.js';
import { termWeights } from '../../../src/core/gate/coverage.js';
import { analyseQuestion } from '../../../src/core/text/analyse-question.js';
import { fact, vocabulary } from './fixtures.js';

const lead = (question: string, facts: ReturnType<typeof fact>[]) => {
  const q = analyseQuestion(question);
  return rankAnswerBearing(facts, q, termWeights(q.terms, vocabulary([])))[0]?.fact.factId;
};

describe('rankAnswerBearing', () => {
  it('leads with the fact that holds the kind of value asked for over a better-retrieved one that does not', () => {
    const talksAbout = fact('Additional Premiums are payable by those with serious pre-existing conditions.', 1, 1);
    const states = fact('Additional Premiums are 30% of the premium, payable for 10 years.', 0.7, 2);
    expect(lead('How much are the Additional Premiums?', [talksAbout, states])).toBe(2);
  });

  it('leads with the table row whose band holds the number asked about', () => {
    const rows = ['1 – 20', '21 – 30', '31 – 40', '41 – 50'].map((band, i) =>
      fact(`Premiums, Age Next Birthday ${band}: Annual Premium $${200 + 100 * i}`, 1 - i * 0.01, i + 1),
    );
    expect(lead('How much is the annual premium for a 35 year old?', rows)).toBe(3);
  });

  it('never leads with a heading or a bare label, however well it was retrieved', () => {
    const heading = { ...fact('Claim limits', 1, 1), heading: 'Benefits > Claim limits' };
    const label = fact('Implant Total', 0.95, 2);
    const row = fact('Claim limit for surgical implants: $7,000 per treatment', 0.6, 3);
    expect(lead('What are the claim limits for implants?', [heading, label, row])).toBe(3);
  });
});

describe('numberFit', () => {
  const asked = (text: string) => new Set([text]);
  it('finds a number inside a range or an open band', () => {
    expect(numberFit(asked('35'), 'Age 31 – 40: $503')).toBe(1);
    expect(numberFit(asked('85'), '81 and above: $2,750')).toBe(1);
    expect(numberFit(asked('75'), '80 and below: $2,000')).toBe(1);
    expect(numberFit(asked('85'), '80 and below: $2,000')).toBe(0);
  });
  it('counts the number itself half, and nothing when the question names none', () => {
    expect(numberFit(asked('80'), 'Do not exceed 80 km/h')).toBe(0.5);
    expect(numberFit(new Set(), 'Age 31 – 40: $503')).toBe(0);
  });
});

describe('isFragment', () => {
  it('takes headings, labels and captions for fragments', () => {
    expect(isFragment({ text: 'Exclusions', heading: 'Coverage > Exclusions' })).toBe(true);
    expect(isFragment({ text: 'Cosmetic surgery', heading: null })).toBe(true);
    expect(isFragment({ text: 'Driving On Expressways / Yellow-Box Junctions', heading: null })).toBe(true);
  });
  it('keeps sentences and labelled values', () => {
    expect(isFragment({ text: 'Class C ward: $2,000', heading: null })).toBe(false);
    expect(isFragment({ text: 'Newborns are covered from birth.', heading: null })).toBe(false);
    expect(isFragment({ text: 'The deductible is paid once a policy year.', heading: 'Deductible' })).toBe(false);
  });
});
