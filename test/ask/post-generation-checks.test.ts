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
      thresholdSource: 'default',
    });
    expect(groundingReason(checked.grounding)).not.toHaveProperty('claims');
  });

  it("holds the draft to the KB's threshold when given one, and says where it came from", async () => {
    const draft = { answer: 'Full-time staff receive 18 days of annual leave in each calendar year.', citations: [1] };
    const strict = await checkDraft(null, draft, FACTS, { grounding: { threshold: 1.01, source: 'kb@3' } });
    expect(strict.failed).toMatchObject({ layer: 'grounding', pass: false, threshold: 1.01, thresholdSource: 'kb@3' });
    const lenient = await checkDraft(null, draft, FACTS, { grounding: { threshold: 0.2, source: 'kb@4' } });
    expect(lenient.verdicts[0]).toMatchObject({ pass: true, threshold: 0.2, thresholdSource: 'kb@4' });
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
