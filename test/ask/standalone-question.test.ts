import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { standaloneQuestion } from '../../src/ask/standalone-question.js';
import { loadConfig } from '../../src/config.js';
import type { LogLevel } from '../../src/kernel/log.js';
import { createLlm, type Llm } from '../../src/llm/llm-client.js';
import { REWRITE_FOLLOW_UP_PROMPT } from '../../src/llm/prompts/rewrite-follow-up.js';
import { completion, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

const PREVIOUS = 'What is the MediShield Life deductible for a class C ward?';
const FOLLOW_UP = 'and for children?';
const REWRITTEN = 'What is the MediShield Life deductible for children in a class C ward?';

describe('standaloneQuestion with a model (fake OpenAI server)', () => {
  let fake: FakeOpenAi;
  let llm: Llm;
  const logged: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = [];
  const log = (level: LogLevel, message: string, fields: Record<string, unknown> = {}) => void logged.push({ level, message, fields });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    const config = loadConfig({
      CANDOR_DATA_DIR: 'memory://',
      OPENAI_BASE_URL: fake.baseUrl,
      CANDOR_CHAT_MODEL: 'rewriter',
      CANDOR_LLM_MAX_RETRIES: '0',
      CANDOR_LLM_TIMEOUT_MS: '300',
    });
    llm = createLlm(config.llm!);
  });
  afterAll(() => fake?.close());

  it('makes one rewrite call with the versioned prompt and returns the rewrite with its prompt id@version', async () => {
    const before = fake.chatCalls().length;
    fake.script(completion(JSON.stringify({ question: REWRITTEN })));
    const s = await standaloneQuestion({ previous: PREVIOUS, followUp: FOLLOW_UP }, { llm, log });
    expect(s).toEqual({ question: REWRITTEN, method: 'rewritten', rewriteFailed: false, prompt: 'rewrite-follow-up@2026-11-1' });
    expect(s.prompt).toBe(`${REWRITE_FOLLOW_UP_PROMPT.id}@${REWRITE_FOLLOW_UP_PROMPT.version}`);
    const calls = fake.chatCalls().slice(before);
    expect(calls).toHaveLength(1);
    const messages = calls[0]!.body.messages as { role: string; content: string }[];
    expect(calls[0]!.body.model).toBe('rewriter');
    expect(messages[0]!.content).toBe(REWRITE_FOLLOW_UP_PROMPT.system);
    expect(messages[1]!.content).toContain(PREVIOUS);
    expect(messages[1]!.content).toContain(FOLLOW_UP);
  });

  it('a follow-up the model returns unchanged is used as asked, with the prompt that judged it', async () => {
    const standalone = 'How deep must tyre treads be?';
    fake.script(completion(JSON.stringify({ question: `${standalone} ` })));
    const s = await standaloneQuestion({ previous: PREVIOUS, followUp: standalone }, { llm, log });
    expect(s).toEqual({ question: standalone, method: 'as_asked', rewriteFailed: false, prompt: 'rewrite-follow-up@2026-11-1' });
  });

  it.each([
    ['a 500', () => fake.script({ status: 500, body: { error: { message: 'boom', type: 'server_error' } } }), 'llm_unavailable'],
    ['a timeout', () => fake.script({ ...completion(JSON.stringify({ question: REWRITTEN })), delayMs: 1_000 }), 'llm_unavailable'],
    ['garbage', () => fake.script(completion('Sure! Here is the question you asked for.')), 'invalid_output'],
    ['an empty rewrite', () => fake.script(completion(JSON.stringify({ question: '   ' }))), 'invalid_output'],
    [
      'an oversized rewrite',
      () => fake.script(completion(JSON.stringify({ question: 'The deductible is $2,000. '.repeat(20) }))),
      'invalid_output',
    ],
  ])('fails closed on %s: judged as asked, rewriteFailed, logged without user text', async (_name, arrange, code) => {
    logged.length = 0;
    arrange();
    const s = await standaloneQuestion({ previous: PREVIOUS, followUp: FOLLOW_UP }, { llm, log });
    expect(s).toEqual({ question: FOLLOW_UP, method: 'as_asked', rewriteFailed: true });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'warn', fields: { code, prompt: 'rewrite-follow-up@2026-11-1' } });
    const line = JSON.stringify(logged[0]);
    expect(line).not.toContain('children');
    expect(line).not.toContain('deductible');
  });

  it('without a model, the rule borrows the earlier topic; the model is never called', async () => {
    const before = fake.chatCalls().length;
    const s = await standaloneQuestion({ previous: PREVIOUS, followUp: FOLLOW_UP }, { llm: null });
    expect(s).toEqual({
      question: 'and for children (MediShield Life deductible, class C ward)?',
      method: 'borrowed',
      rewriteFailed: false,
    });
    const plain = await standaloneQuestion({ previous: PREVIOUS, followUp: 'How deep must tyre treads be?' }, { llm: null });
    expect(plain).toEqual({ question: 'How deep must tyre treads be?', method: 'as_asked', rewriteFailed: false });
    expect(fake.chatCalls().length).toBe(before);
  });
});
