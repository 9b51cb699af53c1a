import { describe, expect, it } from 'vitest';

import { ABSTENTION_RULE_JUDGE } from '../../../src/core/judge/rule-judges.js';
import { importedLabel } from '../../../src/core/review/imported-label.js';

const ABST = ['correct', 'incorrect'];
const FACT = ['factual', 'non_factual', 'unsure'];

describe('importedLabel', () => {
  it("passes Candor's own outcomes through", () => {
    expect(importedLabel('abstention', 'Correct', null, ABST)).toEqual({ kind: 'label', value: 'correct' });
    expect(importedLabel('factuality', 'unsure', null, FACT)).toEqual({ kind: 'label', value: 'unsure' });
  });

  it('scores "did it abstain" against the right decision', () => {
    expect(importedLabel('abstention', 'yes', 'abstain', ABST)).toEqual({ kind: 'label', value: 'correct' });
    expect(importedLabel('abstention', 'no', 'abstain', ABST)).toEqual({ kind: 'label', value: 'incorrect' });
    expect(importedLabel('abstention', 'yes', 'answer', ABST)).toEqual({ kind: 'label', value: 'incorrect' });
    expect(importedLabel('abstention', 'false', 'answer', ABST)).toEqual({ kind: 'label', value: 'correct' });
    expect(importedLabel('abstention', 'yes', null, ABST)).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/answerable/) });
  });

  it('reads PolicyBench factuality tiers; NA does not apply', () => {
    expect(importedLabel('factuality', 'tier_1', null, FACT)).toEqual({ kind: 'label', value: 'factual' });
    expect(importedLabel('factuality', 'tier_2', null, FACT)).toEqual({ kind: 'label', value: 'factual' });
    expect(importedLabel('factuality', 'tier_3', null, FACT)).toEqual({ kind: 'label', value: 'non_factual' });
    expect(importedLabel('factuality', 'NA', null, FACT)).toEqual({ kind: 'not_applicable' });
    expect(importedLabel('factuality', 'tier_9', null, FACT)).toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(/tier_1\/tier_2\/tier_3/),
    });
  });
});

describe('rule:abstention@1 as a judge', () => {
  it('says correct when the reply abstains exactly when abstaining was right, and nothing when that is unknown', () => {
    const label = (reply: string, expected: 'answer' | 'abstain' | null) =>
      ABSTENTION_RULE_JUDGE.label({ question: 'Is parking free?', reply, expected });
    expect(label("I don't know.", 'abstain')).toBe('correct');
    expect(label('Parking costs $45 a month.', 'abstain')).toBe('incorrect');
    expect(label('Parking costs $45 a month.', 'answer')).toBe('correct');
    expect(label("I don't know.", 'answer')).toBe('incorrect');
    expect(label("I don't know.", null)).toBeNull();
  });
});
