import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import type { LooReport } from '../../src/eval/leave-one-out.js';
import type { BehindReport } from '../../src/eval/loo-behind.js';
import { evalLoo } from '../../src/eval/loo-command.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

const QUESTIONS = [
  { id: 'HB-1', question: 'How many days of annual leave do full-time staff get?', factId: 'HB-1' },
  { id: 'HB-2', question: 'How much unused annual leave can be carried forward?', factId: 'HB-2' },
  { id: 'HB-3', question: 'When is a medical certificate needed for sick leave?', factId: 'HB-3' },
  { id: 'HB-4', question: 'How much does a staff parking permit cost?', factId: 'HB-4' },
];

/** PolicyBench responses_with_labels lines, as published. */
const published = (questionId: string, over: Record<string, unknown> = {}) => ({
  knowledge_base_identifier: 'HB_8',
  retrieval_type: 'BASIC_RAG',
  system_prompt: 'conservative_llm_prompt',
  model: 'gpt-4o',
  question_id: questionId,
  response: 'I do not know.',
  context_question_ids: ['HB-5', 'HB-6'],
  citation: 'no citation',
  abstention: 'no',
  factuality: 'NA',
  ...over,
});

const RESPONSES = [
  published('HB-1', { abstention: 'yes' }),
  // grounded in the fact it cites (HB-3, shown first): withheld only if the gate refused HB-2
  published('HB-2', {
    response: 'A medical certificate from a registered doctor is required for sick leave longer than two days. [1]',
    context_question_ids: ['HB-3', 'HB-4'],
    citation: 0,
  }),
  // 60 is in no fact: the grounding check withholds it
  published('HB-3', { response: 'Parking permits cost $60 per month. [1]', context_question_ids: ['HB-4'], citation: 0 }),
  // an answer citing nothing
  published('HB-4', { response: 'Permits are renewed every year.' }),
  published('HB-1', { retrieval_type: 'DIRECT', system_prompt: 'basic_llm_prompt', context_question_ids: [], citation: 2 }),
  published('HB-99'),
];

describe('eval loo --behind', () => {
  const files = tempFiles({
    // HB-2's twin: with HB-2 left out, the gate still answers its question
    'handbook.jsonl': jsonl([
      ...HANDBOOK_FACTS,
      { id: 'HB-9', text: 'Staff may carry forward up to 5 days of unused annual leave into the next calendar year.', source: 'faq#carry' },
    ]),
    'questions.jsonl': jsonl(QUESTIONS),
    'responses.jsonl': jsonl(RESPONSES),
    'bad.jsonl':
      jsonl([published('HB-1')]) + '{"question_id":"HB-2","retrieval_type":"BASIC_RAG","system_prompt":"x","abstention":"maybe"}\n',
  });
  let app: Candor;
  beforeAll(async () => {
    app = await buildCandor(testConfig(), { telemetry: false });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    files.cleanup();
  });

  const run = async (behind: string, json: boolean, markdown?: string) => {
    const said: string[] = [];
    const args = { kb: 'handbook', questions: files.path('questions.jsonl'), behind, json, markdown };
    const code = await evalLoo(
      app,
      args,
      (t) => said.push(t),
      () => undefined,
    );
    return { code, out: said.join('\n') };
  };

  it('adds the three rates per configuration to the JSON, beside the gate’s full-KB figure, and counts the unmatched row', async () => {
    const { code, out } = await run(files.path('responses.jsonl'), true, files.path('loo.md'));
    expect(code).toBe(0);
    const report = JSON.parse(out) as LooReport & { behind: BehindReport };
    expect(report.summary.n).toBe(4);
    const refused = (id: string) => report.items.find((i) => i.id === id)?.loo?.decision === 'abstain';
    expect([refused('HB-2'), refused('HB-3')]).toEqual([false, true]);
    const gate = ['HB-2', 'HB-3', 'HB-4'].filter(refused).length;
    const b = report.behind;
    expect(b.file).toBe(files.path('responses.jsonl'));
    expect(b.rows).toEqual([
      expect.objectContaining({
        domain: 'HB',
        retrieval: 'BASIC_RAG',
        prompt: 'conservative',
        n: 4,
        modelAbstained: 0.25,
        behindGate: (1 + gate) / 4,
        behindGateAndGrounding: (3 + (refused('HB-2') ? 1 : 0)) / 4,
      }),
      expect.objectContaining({
        domain: 'HB',
        retrieval: 'DIRECT',
        prompt: 'basic',
        n: 1,
        modelAbstained: 0,
        behindGate: refused('HB-1') ? 1 : 0,
      }),
    ]);
    // With the fallback, a withheld draft is quoted instead: abstained right is the gate's share, the rest answered wrong.
    const outcomes = b.rows[0]!.outcomes;
    expect(outcomes.alone).toEqual({ answeredRight: 0, abstainedRight: 0.25, answeredWrong: 0.75 });
    expect(outcomes.withFallback).toMatchObject({ answeredRight: 0, abstainedRight: (1 + gate) / 4, answeredWrong: 1 - (1 + gate) / 4 });
    expect(b.rows[1]!.outcomes.withFallback).toBeUndefined();
    expect(b.matched).toBe(5);
    expect(b.unmatched).toEqual({ n: 1, byReason: { 'not in this run': 1 }, examples: ['line 6: HB-99 (not in this run)'] });
    expect(b.contextFactsMissing).toBe(0);
    expect(b.gateFullKbAnswered).toBe(report.summary.fullAnsweredWithFact);
    const page = readFileSync(files.path('loo.md'), 'utf8');
    expect(page).toContain('## Behind the published model answers');
    expect(page).toContain('| HB | DIRECT | basic | 1 | 0.0% |');
    expect(page).toContain('5 published answers matched; 1 not matched (1 not in this run)');
    expect(page).toContain('| domain | retrieval | prompt | alone | behind gate | behind gate + grounding + fallback |');
  });

  it('prints a small table in text mode', async () => {
    const { out } = await run(files.path('responses.jsonl'), false);
    expect(out).toMatch(/domain\s+configuration\s+n\s+model alone\s+behind gate\s+\+ grounding/);
    expect(out).toMatch(/HB\s+BASIC_RAG conservative\s+4\s+25\.0%/);
    expect(out).toMatch(/HB\s+DIRECT basic\s+1\s+0\.0%\s+\d+\.\d%\s+—/);
    expect(out).toContain('the gate alone, full KB: answered citing its own fact');
  });

  it('refuses a malformed responses file, naming the line, before asking anything', async () => {
    await expect(run(files.path('bad.jsonl'), true)).rejects.toThrow(
      /bad\.jsonl has 1 bad line[\s\S]*line 2: abstention must be yes or no, not "maybe"/,
    );
    await expect(run(files.path('missing.jsonl'), true)).rejects.toThrow(/Cannot read .*missing\.jsonl/);
  });
});
