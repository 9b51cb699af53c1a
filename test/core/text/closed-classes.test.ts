import { describe, expect, it } from 'vitest';

import { contradictedQualifier } from '../../../src/core/text/closed-classes.js';

describe('contradictedQualifier', () => {
  it('finds a qualifier of the question that the fact replaces with another of its class', () => {
    expect(contradictedQualifier('Is it open on Sundays?', 'Open on Saturdays from 9am.')).toEqual({ asked: 'sunday', stated: 'saturday' });
    expect(contradictedQualifier('How long is the second suspension?', 'The first suspension lasts 12 weeks.')).toEqual({
      asked: 'second',
      stated: 'first',
    });
    expect(contradictedQualifier('Is one primary cancer covered?', 'Multiple primary cancers: $3,000')).toEqual({
      asked: 'single',
      stated: 'multiple',
    });
  });

  it('is silent when the fact names the asked member too, or none of its class', () => {
    expect(contradictedQualifier('Is it open on Sundays?', 'Open on Saturdays and Sundays.')).toBeNull();
    expect(contradictedQualifier('Is it open on Sundays?', 'Open every day from 9am.')).toBeNull();
    expect(contradictedQualifier('What is the fee?', 'The fee is due on Mondays.')).toBeNull();
  });
});
