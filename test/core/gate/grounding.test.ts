import { describe, expect, it } from 'vitest';

import { checkGrounding, numbersIn } from '../../../src/core/gate/grounding.js';

const EVIDENCE = [
  { text: 'Only those with serious pre-existing medical conditions need to pay an Additional Premium of 30% for the first 10 years.' },
  { text: 'The MediShield Life premium for ages 21 to 30 is $1,150 a year, payable from MediSave.' },
  { text: 'Claims are filed by the hospital on behalf of the patient.' },
];

describe('checkGrounding', () => {
  it('passes an answer whose numbers and names are in the facts it cites', () => {
    const verdict = checkGrounding(
      { answer: 'People with serious pre-existing conditions pay an Additional Premium of 30% for 10 years [1].', citations: [1] },
      EVIDENCE,
    );
    expect(verdict).toMatchObject({ pass: true, layer: 'grounding' });
  });

  it('treats $1,150 and 1150 as the same amount', () => {
    expect(checkGrounding({ answer: 'It costs 1150 dollars a year, from MediSave.', citations: [2] }, EVIDENCE).pass).toBe(true);
  });

  it('refuses an answer that cites nothing, or a fact that was not retrieved', () => {
    expect(checkGrounding({ answer: 'Yes.', citations: [] }, EVIDENCE)).toMatchObject({
      pass: false,
      code: 'ungrounded',
      detail: 'the answer cites no fact',
    });
    expect(checkGrounding({ answer: 'Claims are filed by the hospital.', citations: [3, 7] }, EVIDENCE)).toMatchObject({
      pass: false,
      code: 'ungrounded',
      detail: expect.stringContaining('[7]'),
    });
  });

  it('refuses a number the cited facts do not state, even when another retrieved fact has it', () => {
    const verdict = checkGrounding(
      { answer: 'The Additional Premium is 30% for 10 years and the premium is $1,150.', citations: [1] },
      EVIDENCE,
    );
    expect(verdict).toMatchObject({ pass: false, code: 'ungrounded' });
    expect(verdict.detail).toContain('"1150"');
  });

  it('refuses a date, an identifier or a name that is not in the cited facts', () => {
    expect(checkGrounding({ answer: 'Claims are filed by the hospital before 31 March.', citations: [3] }, EVIDENCE).detail).toMatch(
      /"31"|"March"/,
    );
    expect(checkGrounding({ answer: 'The hospital files claims with form MC-22.', citations: [3] }, EVIDENCE).detail).toContain('mc22');
    expect(
      checkGrounding({ answer: 'Claims are filed by the hospital and checked by Medisafe Corporation.', citations: [3] }, EVIDENCE).detail,
    ).toContain('Medisafe');
  });

  it('ignores citation markers and sentence-initial capitals', () => {
    expect(
      checkGrounding({ answer: 'Claims are filed by the hospital [3]. Patients get help from the hospital.', citations: [3] }, EVIDENCE)
        .pass,
    ).toBe(true);
  });
});

describe('numbersIn', () => {
  it('reads amounts, percentages and decimals as values', () => {
    expect(numbersIn('$1,500.00, 30%, 2.5 and [2]')).toEqual(['1500', '30', '2.5']);
  });
});
