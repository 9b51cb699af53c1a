import { describe, expect, it } from 'vitest';

import { renumberMarkers } from '../../src/ask/llm-answer.js';

describe('renumberMarkers', () => {
  it('renumbers the model’s markers from the facts it was shown to the evidence it cited', () => {
    expect(renumberMarkers('The deductible is $2,000 [3], paid once a year [1].', [3, 1])).toBe(
      'The deductible is $2,000 [1], paid once a year [2].',
    );
  });
  it('drops a marker naming a fact the model did not cite, and leaves other text alone', () => {
    expect(renumberMarkers('Premiums rise with age [4]. See Table B.', [2])).toBe('Premiums rise with age. See Table B.');
  });
});
