import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { completion, factNumber, reply, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

const LEAVE = 'How many days of annual leave do full-time staff receive?';

describe('the optional entailment check (CANDOR_LLM_ENTAILMENT=true)', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let fake: FakeOpenAi;
  let app: Candor;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    app = await buildCandor(
      testConfig({
        OPENAI_BASE_URL: fake.baseUrl,
        CANDOR_CHAT_MODEL: 'writer',
        CANDOR_JUDGE_MODEL: 'checker',
        CANDOR_LLM_ENTAILMENT: 'true',
        CANDOR_LLM_MAX_RETRIES: '0',
      }),
      { telemetry: false },
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    files.cleanup();
  });

  const draft = (call: Parameters<typeof factNumber>[0]) =>
    reply(true, 'Full-time staff receive 18 days of annual leave every year, plus public holidays.', [factNumber(call, '18 days')]);

  it('answers when the judge model finds the answer entailed by the cited facts', async () => {
    fake.script(draft, completion(JSON.stringify({ entailed: true, reasoning: 'Fact 1 states it.' })));
    const d = await app.ask({ question: LEAVE, kb: 'handbook', channel: 'test' }, { record: false });
    expect(d.decision).toBe('answer');
    expect(d.reasons.map((r) => r.layer).slice(-3)).toEqual(['llm', 'grounding', 'entailment']);
    const [write, check] = fake.chatCalls().slice(-2);
    expect([write!.body.model, check!.body.model]).toEqual(['writer', 'checker']);
    expect((check!.body.messages as { content: string }[])[1]!.content).toContain('[1] Full-time staff receive 18 days of annual leave');
  });

  it('withholds an answer the judge finds not entailed and quotes the sources instead; fails closed when the judge fails', async () => {
    fake.script(draft, completion(JSON.stringify({ entailed: false, reasoning: 'Public holidays are not in the facts.' })));
    const d = await app.ask({ question: LEAVE, kb: 'handbook', channel: 'test' }, { record: false });
    expect(d).toMatchObject({
      decision: 'answer',
      confidence: 'medium',
      answer: 'Full-time staff receive 18 days of annual leave in each calendar year.',
    });
    expect(d.caveat).toMatch(/quoted the sources/);
    expect(d.reasons).toContainEqual(
      expect.objectContaining({ layer: 'entailment', pass: false, code: 'ungrounded', detail: expect.stringContaining('Public holidays') }),
    );
    // The grounding check passed before the entailment check ran: its support is kept.
    expect(d.reasons).toContainEqual(expect.objectContaining({ layer: 'grounding', pass: true }));
    expect(JSON.stringify(d)).not.toContain('plus public holidays');

    // A judge that fails is a model failure, not a verdict on the draft: the ask fails closed, nothing is quoted.
    fake.script(draft, completion('not json'));
    const broken = await app.ask({ question: LEAVE, kb: 'handbook', channel: 'test' }, { record: false });
    expect(broken).toMatchObject({ decision: 'abstain', answer: null });
    expect(broken.reasons[0]).toMatchObject({ layer: 'entailment', code: 'invalid_output' });
  });
});
