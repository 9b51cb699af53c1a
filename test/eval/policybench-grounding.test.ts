import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { makePolicyBenchGrounding } from '../../scripts/make-policybench-grounding.js';
import { readGroundingRows } from '../../src/eval/grounding/grounding-rows.js';
import { jsonl, tempFiles } from '../support/compose.js';

// The shared PolicyBench files in miniature: four facts (each question's answer) and responses of each kind.
const QUESTIONS = [
  { domain: 'CPF', knowledge_base_identifier: 'CPF_111', identifier: 'CPF_0', question: 'Q0?', answer: 'Fact zero: 55 years.' },
  { domain: 'CPF', knowledge_base_identifier: 'CPF_111', identifier: 'CPF_1', question: 'Q1?', answer: 'Fact one.' },
  { domain: 'CPF', knowledge_base_identifier: 'CPF_111', identifier: 'CPF_2', question: 'Q2?', answer: 'Fact two.' },
  { domain: 'ICA', knowledge_base_identifier: 'ICA_134', identifier: 'ICA_0', question: 'Q3?', answer: 'Fact three.' },
];

const response = (over: Record<string, unknown>) => ({
  source_file: 'x.json',
  experiment_type: 'removal',
  knowledge_base_identifier: 'CPF_111',
  retrieval_type: 'BASIC_RAG',
  system_prompt: 'basic_llm_prompt',
  model: 'gpt-4o-2024-11-20',
  response_id: 'r',
  question_id: 'CPF_0',
  question: 'Q0?',
  expected_answer: 'Fact zero: 55 years.',
  context_question_ids: ['CPF_2', 'CPF_1'],
  response: 'It is 55 years.',
  citation: 1,
  abstention: 'no',
  factuality: 'tier_3',
  ...over,
});

const RESPONSES = [
  response({ response_id: 'r1' }),
  response({ response_id: 'r2', retrieval_type: 'HYDE_RAG', factuality: 'tier_1', system_prompt: 'conservative_llm_prompt' }),
  response({ response_id: 'r3', citation: 'no citation', factuality: 'tier_1', question_id: 'ICA_0', context_question_ids: ['CPF_1'] }),
  response({ response_id: 'r4', retrieval_type: 'DIRECT', context_question_ids: [] }), // no context: left out
  response({ response_id: 'r5', abstention: 'yes' }), // the judge saw a refusal: left out
];

const files = tempFiles({ 'questions.jsonl': jsonl(QUESTIONS), 'responses.jsonl': jsonl(RESPONSES) });
afterAll(() => files.cleanup());

function convert(extra: string[] = []): { code: number; log: string[]; out: string } {
  const out = files.path('out/grounding.jsonl');
  const log: string[] = [];
  const code = makePolicyBenchGrounding(
    ['--responses', files.path('responses.jsonl'), '--questions', files.path('questions.jsonl'), '--out', out, ...extra],
    (line) => log.push(line),
  );
  return { code, log, out };
}

describe('npm run data:policybench-grounding', () => {
  it('keeps the RAG answers the judge did not call refusals, unsupported; tier_1 ones again with the fact restored, supported', () => {
    const { code, log, out } = convert();
    expect(code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.id, l.supported])).toEqual([
      ['r1', false],
      ['r2', false],
      ['r2+fact', true],
      ['r3', false],
      ['r3+fact', true],
    ]);
    expect(lines[0]).toEqual({
      id: 'r1',
      question: 'Q0?',
      response: 'It is 55 years.',
      context: ['Fact two.', 'Fact one.'],
      cited: [1],
      supported: false,
      domain: 'CPF',
      retrieval_type: 'BASIC_RAG',
      system_prompt: 'basic_llm_prompt',
      question_id: 'CPF_0',
      factuality: 'tier_3',
    });
    // the removed fact goes last, and is cited after the original citation
    expect(lines[2]).toMatchObject({
      context: ['Fact two.', 'Fact one.', 'Fact zero: 55 years.'],
      cited: [1, 2],
      retrieval_type: 'HYDE_RAG',
    });
    // "no citation": no `cited`; its control cites the restored fact alone; the domain is the question's
    expect(lines[3]).not.toHaveProperty('cited');
    expect(lines[3]).toMatchObject({ domain: 'ICA' });
    expect(lines[4]).toMatchObject({ context: ['Fact one.', 'Fact three.'], cited: [1] });
    expect(log.join('\n')).toContain('wrote 5 rows');
    expect(log.join('\n')).toContain('3 answers without their fact (supported: false), 2 controls');
    // what it writes is what the command reads
    expect(readGroundingRows(out)).toHaveLength(5);
  });

  it('refuses a response whose context names an unknown question, and an unknown flag', () => {
    files.write('bad.jsonl', jsonl([response({ response_id: 'b', context_question_ids: ['CPF_9'] })]));
    expect(() =>
      makePolicyBenchGrounding([
        '--responses',
        files.path('bad.jsonl'),
        '--questions',
        files.path('questions.jsonl'),
        '--out',
        files.path('b.jsonl'),
      ]),
    ).toThrow(/line 1: question "CPF_9" is not in/);
    const log: string[] = [];
    expect(makePolicyBenchGrounding(['--nope'], (l) => log.push(l))).toBe(2);
    expect(log[0]).toContain('usage:');
  });
});
