import { describe, expect, it } from 'vitest';

import { checkDraft, groundingReason } from '../../src/ask/post-generation-checks.js';

const FACTS = [
  { text: 'Full-time staff receive 18 days of annual leave in each calendar year.' },
  { text: 'Parking permits cost $45 per month.' },
];

describe('checkDraft (the checks the ask path runs after generation)', () => {
  it('puts a plain verdict in the reasons: the support as its score, no claims', async () => {
    const checked = await checkDraft(
      null,
      { answer: 'Full-time staff receive 18 days of annual leave in each calendar year.', citations: [1] },
      FACTS,
    );
    expect(checked.failed).toBeUndefined();
    expect(checked.verdicts).toHaveLength(1);
    expect(checked.verdicts[0]).toEqual({
      layer: 'grounding',
      pass: true,
      code: null,
      detail: checked.grounding.detail,
      score: checked.grounding.support,
      threshold: checked.grounding.threshold,
    });
    expect(groundingReason(checked.grounding)).not.toHaveProperty('claims');
  });

  it('names the failed check; without a model there is no entailment verdict', async () => {
    const checked = await checkDraft(null, { answer: 'Full-time staff receive 25 days of annual leave.', citations: [1] }, FACTS, {
      runAll: true,
    });
    expect(checked.verdicts.map((v) => v.layer)).toEqual(['grounding']);
    expect(checked.failed).toMatchObject({ layer: 'grounding', pass: false, code: 'ungrounded' });
    expect(checked.failed).not.toHaveProperty('claims');
  });
});
