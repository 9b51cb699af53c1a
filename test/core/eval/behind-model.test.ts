import { describe, expect, it } from 'vitest';

import { behindModel, domainOf, type GatedQuestion, type PublishedAnswer } from '../../../src/core/eval/behind-model.js';

const FACTS: Record<string, string> = {
  HB_2: 'Up to 5 days of unused annual leave may be carried forward into the next calendar year.',
  HB_4: 'Staff parking permits cost $45 per month and are renewed every January.',
};

let line = 0;
const answer = (questionId: string, over: Partial<PublishedAnswer> = {}): PublishedAnswer => ({
  line: ++line,
  questionId,
  domain: 'HB',
  retrieval: 'BASIC_RAG',
  prompt: 'conservative',
  question: null,
  abstained: false,
  response: 'Up to 5 days of unused annual leave may be carried forward. [1]',
  contextIds: ['HB_2', 'HB_4'],
  citation: 0,
  ...over,
});

describe('behindModel', () => {
  const questions = new Map<string, GatedQuestion>([
    ['HB_1', { domain: 'HB', refused: true }],
    ['HB_3', { domain: 'HB', refused: false }],
    ['HB_5', { domain: 'HB', refused: false }],
    ['HB_6', { domain: 'HB', refused: false, medium: true }],
    ['HB_7', { domain: 'HB', refused: null }],
  ]);

  it('counts the model alone, behind the gate, and behind the gate and the grounding check, per configuration', () => {
    const summary = behindModel(
      [
        answer('HB_1'), // the gate refused it
        answer('HB_3', { abstained: true, response: 'I do not know.', citation: null }), // the model abstained
        answer('HB_5'), // answered, grounded in the fact it cites: stays answered
        answer('HB_6', { response: 'Parking permits cost $60 per month. [1]', citation: 1 }), // 60 is in no cited fact
        answer('HB_1', { retrieval: 'DIRECT', contextIds: [], citation: 1 }),
        answer('HB_3', { retrieval: 'DIRECT', contextIds: [], abstained: true }),
      ],
      questions,
      (id) => FACTS[id],
    );
    expect(summary.rows).toEqual([
      {
        domain: 'HB',
        retrieval: 'BASIC_RAG',
        prompt: 'conservative',
        n: 4,
        modelAbstained: 0.25,
        behindGate: 0.5,
        behindGateAndGrounding: 0.75,
        // Every fact was removed: nothing answered is right. The withheld draft (HB_6) is quoted instead, and wrong;
        // with the fallback only behind a high gate, HB_6 (medium) is refused.
        outcomes: {
          alone: { answeredRight: 0, abstainedRight: 0.25, answeredWrong: 0.75 },
          behindGate: { answeredRight: 0, abstainedRight: 0.5, answeredWrong: 0.5 },
          withFallback: { answeredRight: 0, abstainedRight: 0.5, answeredWrong: 0.5, quoted: 0.25 },
          fallbackAtHighOnly: { answeredRight: 0, abstainedRight: 0.75, answeredWrong: 0.25, quoted: 0 },
        },
      },
      // no context: nothing to check an answer against
      {
        domain: 'HB',
        retrieval: 'DIRECT',
        prompt: 'conservative',
        n: 2,
        modelAbstained: 0.5,
        behindGate: 1,
        outcomes: {
          alone: { answeredRight: 0, abstainedRight: 0.5, answeredWrong: 0.5 },
          behindGate: { answeredRight: 0, abstainedRight: 1, answeredWrong: 0 },
        },
      },
    ]);
    expect(summary).toMatchObject({ matched: 6, unmatched: { n: 0 }, contextFactsMissing: 0 });
  });

  it('an answer citing nothing, or a fact the KB lacks, fails the grounding check', () => {
    const summary = behindModel(
      [answer('HB_5', { citation: null }), answer('HB_6', { contextIds: ['HB_99', 'HB_4'], citation: 0 })],
      questions,
      (id) => FACTS[id],
    );
    expect(summary.rows[0]).toMatchObject({ n: 2, modelAbstained: 0, behindGate: 0, behindGateAndGrounding: 1 });
    expect(summary.contextFactsMissing).toBe(1);
  });

  it('counts rows it cannot match, by reason, instead of dropping them', () => {
    const summary = behindModel(
      [answer('HB_1'), answer('HB_1'), answer('HB_42'), answer('HB_3', { domain: 'ICA' }), answer('HB_7')],
      questions,
      (id) => FACTS[id],
    );
    expect(summary.matched).toBe(1);
    expect(summary.unmatched.n).toBe(4);
    expect(summary.unmatched.byReason).toEqual({
      duplicate: 1,
      'not in this run': 1,
      'another domain': 1,
      'not asked with its fact left out': 1,
    });
    expect(summary.unmatched.examples[0]).toMatch(/^line \d+: HB_1 \(duplicate\)$/);
  });

  it('reads the domain from an id', () => {
    expect(domainOf('CPF_111')).toBe('CPF');
    expect(domainOf('ICA_0')).toBe('ICA');
    expect(domainOf('HB-7')).toBe('HB');
    expect(domainOf('q17')).toBeNull();
    expect(domainOf('CPF')).toBeNull();
  });
});
