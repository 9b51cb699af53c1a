import { describe, expect, it } from 'vitest';

import { combineVerdicts, hardGate, selectCitations } from '../../../src/core/gate/hard-gate.js';
import { fact, input } from './fixtures.js';

const KB = ['The MediShield Life premium for ages 21 to 30 is $200 a year.', 'Claims are made by your hospital.'];

describe('hardGate', () => {
  it('answers when every layer passes', () => {
    const result = hardGate(input('What is the MediShield Life premium for ages 21 to 30?', [fact(KB[0] as string, 0.9)], KB));
    expect(result.pass).toBe(true);
    expect(result.verdicts.map((v) => v.layer)).toEqual(['entity', 'evidence', 'relevance', 'coverage', 'margin', 'answer_type']);
  });
  it('puts the deciding (first failing) layer first and keeps every verdict', () => {
    const result = hardGate(input('What does ADR-0050 say about the premium?', [fact(KB[0] as string, 0.1)], KB));
    expect(result.pass).toBe(false);
    expect(result.verdicts[0]?.code).toBe('unknown_entity');
    expect(result.verdicts[1]?.code).toBe('low_relevance');
    expect(result.verdicts).toHaveLength(6);
  });
});

describe('combineVerdicts', () => {
  it('passes only when all pass', () => {
    expect(combineVerdicts([{ layer: 'a', pass: true, code: null, detail: '' }]).pass).toBe(true);
    expect(combineVerdicts([]).pass).toBe(true);
  });
});

describe('selectCitations', () => {
  it('cites the best fact and close runners-up, at most max', () => {
    const ranked = [0.8, 0.5, 0.39, 0.7].map((s, i) => fact(`f${i}`, s, i + 1));
    expect(selectCitations(ranked, 3, 0.5).map((f) => f.factId)).toEqual([1, 2, 4]);
    expect(selectCitations(ranked, 2, 0.5).map((f) => f.factId)).toEqual([1, 2]);
    expect(selectCitations([], 3, 0.5)).toEqual([]);
  });
});
