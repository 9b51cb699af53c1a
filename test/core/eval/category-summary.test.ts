import { describe, expect, it } from 'vitest';

import { summariseCategories } from '../../../src/core/eval/category-summary.js';

const item = (id: string, full: 'answer' | 'abstain', loo?: 'answer' | 'abstain') => ({
  id,
  full: { decision: full },
  ...(loo ? { loo: { decision: loo } } : {}),
});

describe('summariseCategories', () => {
  it('counts a fact question with its fact removed and a don’t-know question with the full KB', () => {
    const questions = [
      { id: 'f1', factId: 'A', category: 'fact' },
      { id: 'f2', factId: 'B', category: 'fact' },
      { id: 'u1', category: 'unknowable' },
      { id: 'u2', category: 'unknowable' },
      { id: 'n1', category: 'nonsensical' },
      { id: 'p1', factId: 'C' },
      { id: 'x1' },
      { id: 'missing', category: 'unknowable' },
    ];
    const items = [
      item('f1', 'answer', 'abstain'),
      item('f2', 'answer', 'answer'),
      item('u1', 'abstain', 'answer'),
      item('u2', 'answer'),
      item('n1', 'abstain'),
      item('p1', 'abstain', 'abstain'),
      item('x1', 'answer'),
    ];
    expect(summariseCategories(questions, items)).toEqual([
      { category: 'fact', n: 3, abstained: 2, abstentionRate: 0.6667 },
      { category: 'unknowable', n: 2, abstained: 1, abstentionRate: 0.5 },
      { category: 'nonsensical', n: 1, abstained: 1, abstentionRate: 1 },
      { category: 'uncategorised', n: 1, abstained: 0, abstentionRate: 0 },
    ]);
  });

  it('is empty without questions', () => {
    expect(summariseCategories([], [])).toEqual([]);
  });
});
