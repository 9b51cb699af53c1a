import { describe, expect, it } from 'vitest';

import { formatReplyText } from '../../src/cli/reply-text.js';
import { answerDecision, BOOKLET_EVIDENCE, CAVEAT } from '../channels/chat/decision-fixture.js';

describe('formatReplyText (candor ask without --json)', () => {
  it('prints the caveat before the answer, then each source once with its link', () => {
    const text = formatReplyText(answerDecision('The premium is $X.\nAlso: it is paid yearly.', BOOKLET_EVIDENCE, { caveat: CAVEAT }));
    expect(text).toBe(
      [
        `Caveat: ${CAVEAT}`,
        'The premium is $X.',
        'Also: it is paid yearly.',
        '',
        'Sources:',
        '  1. MediShield Life & You <2025> › 3. Coverage > 3.2 How much is the premium? — https://www.cpf.gov.sg/medishield-life?page=7&lang=en',
        '  2. Premium table | 2025',
      ].join('\n'),
    );
  });

  it('prints a confident answer without a caveat, and a refusal as before', () => {
    expect(formatReplyText(answerDecision('Yes.', []))).toBe('Yes.');
    const refusal = {
      ...answerDecision('', []),
      decision: 'abstain',
      answer: null,
      refusal: 'Not in the KB.',
      confidence: 'low',
      caveat: null,
    } as const;
    expect(formatReplyText(refusal)).toBe("I don't know. Not in the KB.");
  });
});
