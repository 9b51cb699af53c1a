import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { readExampleQuestions, type ExampleQuestion } from '../../src/eval/example-questions/example-questions.js';
import { summariseOutcomes } from '../../src/eval/example-questions/example-totals.js';
import { containsExpected, firstLine, scoreReply, type ScoredDecision } from '../../src/eval/example-questions/score-replies.js';

const QUESTIONS = fileURLToPath(new URL('../../examples/questions/example-kb.jsonl', import.meta.url));

const answerable: ExampleQuestion = {
  id: 'a',
  question: 'ICU limit?',
  answerable: true,
  expected: ['intensive care', '$5,140'],
  note: 'Table A',
};
const unanswerable: ExampleQuestion = {
  id: 'u',
  question: 'Expressway speed limit?',
  answerable: false,
  why: 'never stated',
  category: 'uncitable-related',
};

const answer = (text: string, extra: object = {}): ScoredDecision => ({
  decision: 'answer',
  answer: text,
  refusal: null,
  reasons: [{ code: null }],
  ...extra,
});
const refusal: ScoredDecision = {
  decision: 'abstain',
  answer: null,
  refusal: 'Nothing close enough.',
  reasons: [{ code: 'low_relevance' }],
};

describe('firstLine', () => {
  it('passes over a content-free lead-in, and only that', () => {
    expect(firstLine('From the knowledge base:\n[1] Intensive care unit ward: $5,140 per day (source: a)\n[2] b')).toBe(
      '[1] Intensive care unit ward: $5,140 per day (source: a)',
    );
    expect(firstLine('\n  Claim limits from 1 April 2025:\nNormal ward: $830')).toBe('Claim limits from 1 April 2025:');
    expect(firstLine("I don't know. Nothing close.\nThe knowledge base does cover: “x”.")).toBe("I don't know. Nothing close.");
    expect(firstLine('From the knowledge base:')).toBe('From the knowledge base:');
  });
});

describe('containsExpected', () => {
  it('folds case, whitespace and hyphens', () => {
    expect(containsExpected('INTENSIVE   care unit', 'intensive care')).toBe(true);
    expect(containsExpected('a 12-month period', '12 month')).toBe(true);
    expect(containsExpected('for 12 months', '12 month')).toBe(true);
  });

  it('does not find a string inside a longer word or number', () => {
    expect(containsExpected('on your behalf', 'half')).toBe(false);
    expect(containsExpected('below 12 years old', '2 years')).toBe(false);
    expect(containsExpected('First $5,0001', '$5,000')).toBe(false);
    expect(containsExpected('First $5,000 (1)', '$5,000')).toBe(true);
  });
});

describe('scoreReply', () => {
  it('is right only when every expected string is in the first line', () => {
    const right = scoreReply(answerable, answer('From the knowledge base:\n[1] Intensive care unit ward: $5,140 per day (source: p5)'));
    expect(right).toMatchObject({ outcome: 'right-answer', reason: null, missing: [], confidence: null });

    const below = scoreReply(answerable, answer('From the knowledge base:\n[1] ICU (source: p5)\n[2] Intensive care unit ward: $5,140'));
    expect(below).toMatchObject({ outcome: 'wrong-answer', missing: ['intensive care', '$5,140'], expectedInReply: true });

    const wrongFact = scoreReply(answerable, answer('From the knowledge base:\n[1] Intensive care: see Table A'));
    expect(wrongFact).toMatchObject({ outcome: 'wrong-answer', missing: ['$5,140'], expectedInReply: false });
  });

  it('classifies refusals and answers to unanswerable questions', () => {
    expect(scoreReply(answerable, refusal)).toMatchObject({ outcome: 'false-refusal', reason: 'low_relevance' });
    expect(scoreReply(unanswerable, refusal)).toMatchObject({
      outcome: 'right-refusal',
      firstLine: "I don't know. Nothing close enough.",
      category: 'uncitable-related',
    });
    expect(scoreReply(unanswerable, answer('[1] Drive within the speed limit.'))).toMatchObject({
      outcome: 'wrong-answer',
      decision: 'answer',
    });
  });
});

describe('summariseOutcomes', () => {
  const rows = [
    scoreReply(answerable, answer('Intensive care unit ward: $5,140', { confidence: 'medium' })),
    scoreReply(answerable, answer('Normal ward: $830', { confidence: 'high' })),
    scoreReply(answerable, refusal),
    scoreReply(unanswerable, refusal),
    scoreReply(unanswerable, answer('Drive within the speed limit.', { confidence: 'medium' })),
  ];

  it('counts each outcome with its share of all questions and its rate within its group', () => {
    const t = summariseOutcomes(rows);
    expect(t).toMatchObject({ questions: 5, answerable: 3, unanswerable: 2, answers: 3 });
    expect(t.rightAnswers).toEqual({ count: 1, share: 0.2, rate: 0.3333, of: 'answerable' });
    expect(t.wrongAnswers).toEqual({ count: 2, share: 0.4, rate: 0.6667, of: 'answers', answerableMissing: 1, unanswerableAnswered: 1 });
    expect(t.falseRefusals).toEqual({ count: 1, share: 0.2, rate: 0.3333, of: 'answerable' });
    expect(t.rightRefusals).toEqual({ count: 1, share: 0.2, rate: 0.5, of: 'unanswerable' });
    expect(t.caveats).toEqual({ wrongAnswers: { count: 1, rate: 0.5 }, rightAnswers: { count: 1, rate: 1 } });
  });

  it('measures the promise of `high`: its precision, the right answers it marks, wrong answers with and without a caveat', () => {
    const t = summariseOutcomes([
      scoreReply(answerable, answer('Intensive care unit ward: $5,140', { confidence: 'high' })),
      scoreReply(answerable, answer('Intensive care unit ward: $5,140', { confidence: 'medium' })),
      scoreReply(answerable, answer('Normal ward: $830', { confidence: 'high' })),
      scoreReply(unanswerable, answer('Drive within the speed limit.', { confidence: 'medium' })),
      scoreReply(unanswerable, refusal),
    ]);
    expect(t.confidence).toEqual({
      high: { count: 2, right: 1, precision: 0.5 },
      rightMarkedHigh: { count: 1, rate: 0.5 },
      wrongCaveated: 1,
      wrongUncaveated: 1,
    });
  });

  it('leaves caveats unmeasured while decisions carry no confidence', () => {
    const t = summariseOutcomes([scoreReply(answerable, answer('x')), scoreReply(unanswerable, refusal)]);
    expect(t.caveats).toBeNull();
    expect(t.confidence).toBeNull();
  });
});

describe('examples/questions/example-kb.jsonl', () => {
  const questions = readExampleQuestions(QUESTIONS);

  it('is well-formed: enough questions, both halves, unique ids, an answer or a reason for each', () => {
    expect(questions.length).toBeGreaterThanOrEqual(60);
    const answerableCount = questions.filter((q) => q.answerable).length;
    expect(answerableCount / questions.length).toBeGreaterThanOrEqual(0.4);
    expect((questions.length - answerableCount) / questions.length).toBeGreaterThanOrEqual(0.4);
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
    for (const q of questions) {
      if (q.answerable) expect(q.expected.length, q.id).toBeGreaterThan(0);
      else expect(q.why.trim(), q.id).not.toBe('');
    }
  });

  it('is read strictly: a repeated id or a line without its answer fails the whole file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'candor-example-q-'));
    const repeated = join(dir, 'repeated.jsonl');
    writeFileSync(repeated, [answerable, answerable].map((q) => JSON.stringify(q)).join('\n'));
    expect(() => readExampleQuestions(repeated)).toThrow(/line 2: id "a" is already on line 1/);
    const noExpected = join(dir, 'no-expected.jsonl');
    writeFileSync(noExpected, JSON.stringify({ id: 'b', question: 'q?', answerable: true, note: 'n' }));
    expect(() => readExampleQuestions(noExpected)).toThrow(/line 1: expected/);
  });
});

describe('the held-out question sets (never used to fit)', () => {
  for (const path of ['../../examples/questions/fresh-example-kb.jsonl', '../../examples/handbook/questions.jsonl']) {
    it(`${path.replace('../../', '')} is well-formed: at least 40 questions, both kinds, an answer or a reason for each`, () => {
      const questions = readExampleQuestions(fileURLToPath(new URL(path, import.meta.url)));
      expect(questions.length).toBeGreaterThanOrEqual(40);
      expect(questions.some((q) => q.answerable)).toBe(true);
      expect(questions.filter((q) => !q.answerable).length).toBeGreaterThanOrEqual(10);
      expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
    });
  }
});
