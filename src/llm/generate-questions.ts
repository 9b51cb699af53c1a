import { z } from 'zod';

import type { DontKnowCategory } from '../core/eval/dontknow-categories.js';
import { chatJson } from './chat-json.js';
import type { Llm } from './llm-client.js';
import { DONT_KNOW_PROMPT, dontKnowUserMessage, FACT_QUESTION_PROMPT, factQuestionUserMessage } from './prompts/generate-questions.js';

const question = z.string().trim().min(5).max(1000);
const FactQuestions = z.object({
  questions: z
    .array(z.object({ question, answer: z.string().trim().min(1).max(4000) }))
    .min(1)
    .max(50),
});
const DontKnowQuestions = z.object({ questions: z.array(question).min(1).max(100) });

export interface GeneratedQuestion {
  readonly question: string;
  readonly expected: string;
}

/** Questions that one fact alone answers, with the expected answer (at most `count`). Throws an LlmFailure on an unusable output. */
export async function questionsForFact(
  llm: Llm,
  fact: { readonly text: string; readonly heading: string | null },
  count: number,
): Promise<GeneratedQuestion[]> {
  const result = await chatJson(llm, {
    model: llm.chatModel,
    system: FACT_QUESTION_PROMPT.system,
    user: factQuestionUserMessage(fact, count),
    schemaName: 'fact_questions',
    jsonSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['questions'],
      properties: {
        questions: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['question', 'answer'],
            properties: { question: { type: 'string' }, answer: { type: 'string' } },
          },
        },
      },
    },
    schema: FactQuestions,
  });
  return result.questions.slice(0, count).map((q) => ({ question: q.question, expected: q.answer }));
}

/** Questions of one don't-know category for a knowledge base with these topics (at most `count`). */
export async function dontKnowQuestions(llm: Llm, category: DontKnowCategory, topics: readonly string[], count: number): Promise<string[]> {
  const result = await chatJson(llm, {
    model: llm.chatModel,
    system: DONT_KNOW_PROMPT.system,
    user: dontKnowUserMessage(category, topics, count),
    schemaName: 'dontknow_questions',
    jsonSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['questions'],
      properties: { questions: { type: 'array', items: { type: 'string' } } },
    },
    schema: DontKnowQuestions,
  });
  return result.questions.slice(0, count);
}

export const GENERATION_PROMPTS = `${FACT_QUESTION_PROMPT.id}@${FACT_QUESTION_PROMPT.version}, ${DONT_KNOW_PROMPT.id}@${DONT_KNOW_PROMPT.version}`;
