import { describe, expect, it } from 'vitest';

import { criteriaLines, outcomeLabel, REVIEW_TASKS, withEmoji } from '../../../src/core/review/review-tasks.js';

describe('review task labels (what cards show)', () => {
  it('gives every outcome a label that is not its raw id', () => {
    for (const task of REVIEW_TASKS)
      for (const outcome of task.outcomes) {
        expect(outcomeLabel(task, outcome)).not.toBe(outcome);
        expect(outcomeLabel(task, outcome)).not.toMatch(/_/);
      }
  });

  it('splits the criteria into one rule per outcome, read by its label, and notes', () => {
    const factuality = REVIEW_TASKS.find((t) => t.id === 'factuality')!;
    const lines = criteriaLines(factuality);
    expect(lines.map((l) => l.label)).toEqual(['Factual', 'Not factual', 'Unsure']);
    expect(lines[1]!.text).toMatch(/^when any statement contradicts/);
    const scale = criteriaLines(REVIEW_TASKS.find((t) => t.id === 'dontknowness')!);
    expect(scale.map((l) => l.label)).toEqual(['1', '2', '3', '4', '5', null]);
    for (const task of REVIEW_TASKS) expect(criteriaLines(task).every((l) => !l.text.includes('`'))).toBe(true);
  });

  it('keeps the labels when a deployment changes the emoji', () => {
    const [abstention] = withEmoji({ thumbsup: { task: 'abstention', value: 'correct' } });
    expect(outcomeLabel(abstention!, 'correct')).toBe('✅ Correct');
  });
});
