import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import type { DetectReport } from '../../src/core/judge/detect-report.js';
import { evalDetect } from '../../src/eval/detect-command.js';
import { CandorError } from '../../src/kernel/errors.js';
import { jsonl, tempFiles } from '../support/compose.js';

const files = tempFiles({});
afterAll(() => files.cleanup());

function detect(name: string, content: string, json = true): { code: number; text: string } {
  const path = files.write(name, content);
  let text = '';
  const code = evalDetect({ responses: path, json }, (t) => (text += t));
  return { code, text };
}

// Labels chosen so the detector gets four right and one wrong: item r5 hedges in a way the label calls an answer.
const LABELLED = [
  { id: 'r1', question: 'How many days of leave do I get?', response: 'Full-time staff get 18 days of annual leave.', label: 'no' },
  { id: 'r2', question: 'Is parking free?', response: "I don't know.", label: 'yes' },
  {
    id: 'r3',
    question: 'Can I carry leave forward?',
    response: 'The provided context does not mention carrying leave forward.',
    label: 'yes',
  },
  { id: 'r4', question: 'When is lunch served?', response: 'Lunch is served until 2.30 pm.', label: 'no' },
  { id: 'r5', question: 'Where do I return my laptop?', response: 'No, returning laptops is not mentioned.', label: 'no' },
];

describe('candor eval detect', () => {
  it('prints each verdict and, with labels, agreement, kappa with a CI, the confusion matrix and the disagreements', () => {
    const { code, text } = detect('labelled.jsonl', jsonl(LABELLED));
    expect(code).toBe(0);
    const report = JSON.parse(text) as DetectReport;
    expect(report.detector).toBe('rule:abstention@1');
    expect(report.rows.map((r) => r.verdict)).toEqual(['no', 'yes', 'yes', 'no', 'yes']);
    expect(report.labelled).toBe(5);
    const a = report.agreement!;
    // po = 4/5; label yes 2/5, detector yes 3/5: pe = 0.4·0.6 + 0.6·0.4 = 0.48; kappa = 0.32/0.52
    expect(a.percentAgreement).toBe(0.8);
    expect(a.cohensKappa).toBeCloseTo(0.6154, 4);
    expect(a.confusion).toEqual({
      categories: ['yes', 'no'],
      matrix: [
        [2, 0],
        [1, 2],
      ],
    });
    expect(a.kappaCI.iterations).toBe(1000);
    expect(a.disagreements).toEqual([
      {
        id: 'r5',
        label: 'no',
        verdict: 'yes',
        why: 'opens by declining',
        question: LABELLED[4]!.question,
        response: LABELLED[4]!.response,
      },
    ]);
  });

  it('the text form names every row and the disagreements', () => {
    const { text } = detect('labelled-text.jsonl', jsonl(LABELLED), false);
    expect(text.split('\n').filter((l) => /^r\d\t/.test(l))).toHaveLength(5);
    expect(text).toMatch(/r5\tabstains\tlabel answers\tDISAGREE/);
    expect(text).toMatch(/Cohen's kappa 0\.615 \[/);
    expect(text).toMatch(/Disagreements \(1\):\n {2}r5: label answers, detector abstains/);
  });

  it('reads PolicyBench rows as published (response_id, abstention) and rows without labels', () => {
    const rows = [
      { response_id: 'CPF_1', question: 'Q?', response: 'The context does not specify this.', abstention: 'yes', factuality: 'NA' },
      { id: 7, question: 'Q2?', response: 'It costs $5.' },
    ];
    const report = JSON.parse(detect('policybench.jsonl', jsonl(rows)).text) as DetectReport;
    expect(report.rows).toMatchObject([
      { id: 'CPF_1', verdict: 'yes', label: 'yes' },
      { id: '7', verdict: 'no' },
    ]);
    expect(report.labelled).toBe(1);
    const unlabelled = detect('unlabelled.jsonl', jsonl([rows[1]!]), false).text;
    expect(unlabelled).toMatch(/No labels in the file/);
  });

  it.each([
    ['broken JSON', '{"id":"a","question":"q","response":"r"}\n{"id":\n', /line 2: not valid JSON/],
    ['a missing response', jsonl([{ id: 'a', question: 'q' }]), /line 1: response/],
    [
      'an unknown label',
      jsonl([{ id: 'a', question: 'q', response: 'r', label: 'maybe' }]),
      /line 1: label "maybe" is not an abstention label/,
    ],
    [
      'a repeated id',
      jsonl([
        { id: 'a', question: 'q', response: 'r' },
        { id: 'a', question: 'q', response: 'r' },
      ]),
      /line 2: id "a" already used on line 1/,
    ],
    ['no rows', '\n\n', /holds no rows/],
    ['binary content', 'PK\u0003\u0004\u0000\u0000', /not a text file/],
  ])('refuses %s with a message naming the file and line', (name, content, message) => {
    const path = files.write(`bad-${name.replace(/\W/g, '-')}.jsonl`, content);
    expect(() => evalDetect({ responses: path, json: true }, () => undefined)).toThrow(message);
    expect(() => evalDetect({ responses: path, json: true }, () => undefined)).toThrow(CandorError);
  });

  it('a missing file is a clear error', () => {
    expect(() => evalDetect({ responses: files.path('nope.jsonl'), json: true }, () => undefined)).toThrow(/Cannot read .*nope\.jsonl/);
  });

  // The measured target: Cohen's kappa ≥ 0.90 against PolicyBench's published abstention labels (1,729 GPT-4o replies).
  const SHARED = new URL('../../../shared/data/policybench/results/responses_with_labels_cpf_ica.jsonl', import.meta.url).pathname;
  it.skipIf(!existsSync(SHARED))('reaches kappa ≥ 0.90 on the published PolicyBench labels', () => {
    let text = '';
    evalDetect({ responses: SHARED, json: true }, (t) => (text += t));
    const report = JSON.parse(text) as DetectReport;
    expect(report.labelled).toBe(1729);
    expect(report.agreement!.cohensKappa).toBeGreaterThanOrEqual(0.9);
    expect(report.agreement!.kappaCI.low).toBeGreaterThanOrEqual(0.9);
  });
});
