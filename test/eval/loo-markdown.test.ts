import { describe, expect, it } from 'vitest';

import { renderLooMarkdown } from '../../src/eval/loo-markdown.js';

describe('renderLooMarkdown', () => {
  const report = {
    summary: {
      n: 4,
      fullAnswered: 0.75,
      fullAnsweredWithFact: 0.5,
      looAbstained: 0.25,
      fullRefusedBy: { low_coverage: 1 },
      looRefusedBy: { low_coverage: 2, low_margin: 1 },
      hardGateRefusals: 4,
    },
    items: [],
  };

  it('writes the figures, one row per category and the refusals by reason', () => {
    const page = renderLooMarkdown('handbook', 'q.jsonl', report, [
      { category: 'fact', n: 2, abstained: 1, abstentionRate: 0.5 },
      { category: 'unknowable', n: 2, abstained: 2, abstentionRate: 1 },
    ]);
    expect(page).toContain('| answered citing its own fact | 50.0% |');
    expect(page).toContain('| asks refused by the hard gate (of 8) | 4 |');
    expect(page).toContain('## Abstention by question category');
    expect(page).toContain('| unknowable | 2 | 2 | 100.0% |');
    expect(page).toContain('| low_coverage | 1 | 2 |\n| low_margin | 0 | 1 |');
  });

  it('leaves the category section out when there are no categories, and keeps a category name from breaking the table', () => {
    expect(renderLooMarkdown('kb', 'q.jsonl', report, [])).not.toContain('by question category');
    expect(renderLooMarkdown('kb', 'q.jsonl', report, [{ category: 'a|b', n: 1, abstained: 0, abstentionRate: 0 }])).toContain(
      '| a b | 1 | 0 | 0.0% |',
    );
  });
});
