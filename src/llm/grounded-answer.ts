import { z } from 'zod';

import { chatJson } from './chat-json.js';
import type { Llm } from './llm-client.js';
import { ANSWER_PROMPT, answerUserMessage } from './prompts/answer.js';

/** What the model says about the question, validated. */
export const GroundedAnswer = z.object({
  answerable: z.boolean(),
  reasoning: z.string().max(4000),
  answer: z.string().max(8000),
  citations: z.array(z.number().int()).max(20),
});
export type GroundedAnswer = z.infer<typeof GroundedAnswer>;

const JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['answerable', 'reasoning', 'answer', 'citations'],
  properties: {
    answerable: { type: 'boolean' },
    reasoning: { type: 'string' },
    answer: { type: 'string' },
    citations: { type: 'array', items: { type: 'integer' } },
  },
} as const;

/**
 * The soft refusal and the grounded answer in one structured call: the model
 * sees only the question and the retrieved facts, numbered, with sources.
 */
export function groundedAnswer(
  llm: Llm,
  question: string,
  facts: readonly { readonly text: string; readonly source: string }[],
  options: { traceContent?: boolean } = {},
): Promise<GroundedAnswer> {
  return chatJson(llm, {
    model: llm.chatModel,
    system: ANSWER_PROMPT.system,
    user: answerUserMessage(question, facts),
    schemaName: 'grounded_answer',
    jsonSchema: JSON_SCHEMA,
    schema: GroundedAnswer,
    ...(options.traceContent ? { traceContent: true } : {}),
  });
}

export const ANSWER_PROMPT_REF = `${ANSWER_PROMPT.id}@${ANSWER_PROMPT.version}`;
