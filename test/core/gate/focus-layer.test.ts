import { describe, expect, it } from 'vitest';

import { doubtsAbout, focusLayer } from '../../../src/core/gate/focus-layer.js';
import { fact, input, SETTINGS, vocabulary } from './fixtures.js';

const KB = ['Vehicles should drive within the speed limit of the road.', 'The speed limit on expressways is 90 km/h.', 'Making a claim'];

describe('focusLayer', () => {
  it('refuses when the leading fact states no value of the kind asked for', () => {
    const noLimit = {
      ...fact('(Vehicles should slow down and drive within the speed limit of the road)', 1),
      heading: 'End of expressway',
    };
    const verdict = focusLayer(input("What's the speed limit on expressways?", [noLimit], KB));
    expect(verdict).toMatchObject({ layer: 'focus', pass: false, code: 'answer_type_mismatch' });
    expect(verdict.detail).toBe('the question asks for an amount and the closest fact states none');
  });

  it('passes when a fact holding the value is there to lead', () => {
    const noLimit = fact('Vehicles should drive within the speed limit of the road.', 1, 1);
    const limit = fact('The speed limit on expressways is 90 km/h.', 0.8, 2);
    expect(focusLayer(input("What's the speed limit on expressways?", [noLimit, limit], KB))).toMatchObject({ pass: true });
  });

  it('leaves the value check to the setting', () => {
    const noLimit = fact('Vehicles should drive within the speed limit of the road.', 1, 1);
    const settings = { ...SETTINGS, checkAnswerType: false };
    expect(focusLayer(input("What's the speed limit on expressways?", [noLimit], KB, { settings })).pass).toBe(true);
  });

  it('refuses when every retrieved fact is a heading or a label', () => {
    const verdict = focusLayer(input('How do I make a claim?', [{ ...fact('Making a claim', 1), heading: 'Making a claim' }], KB));
    expect(verdict).toMatchObject({ pass: false, code: 'low_coverage' });
    expect(verdict.detail).toMatch(/headings or labels/);
  });
});

describe('doubtsAbout', () => {
  it('names question words the KB never mentions and specific ones the leading fact lacks, as the user typed them', () => {
    const limit = fact('The speed limit on roads is 50 km/h.', 1);
    const vocab = vocabulary([...KB, 'The speed limit on roads is 50 km/h.'], { expressway: 3, speed: 0.5, limit: 0.5 });
    const doubts = doubtsAbout(input("What's the speed limit on Expressways for Tractors?", [limit], KB, { vocabulary: vocab }));
    expect(doubts).toEqual(['the knowledge base never mentions "Tractors"', 'the closest fact does not mention "Expressways"']);
  });

  it('does not count the words that frame a question ("how long", "someone")', () => {
    const fact90 = fact('Probation lasts one year.', 1);
    const vocab = vocabulary(['Probation lasts one year.', 'long roads'], { long: 3, probation: 1 });
    expect(doubtsAbout(input('How long is probation for someone new?', [fact90], KB, { vocabulary: vocab }))).toEqual([
      'the knowledge base never mentions "new"',
    ]);
  });
});
