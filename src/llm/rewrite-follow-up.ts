import { z } from 'zod';

import { chatJson } from './chat-json.js';
import type { Llm } from './llm-client.js';
import { LlmFailure } from './llm-failure.js';
import { REWRITE_FOLLOW_UP_PROMPT, rewriteFollowUpUserMessage } from './prompts/rewrite-follow-up.js';

const Rewrite = z.object({ question: z.string() });

const JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['question'],
  properties: { question: { type: 'string' } },
} as const;

/**
 * One chat call: the follow-up as a standalone question (prompt `rewrite-follow-up`).
 * An empty rewrite, or one longer than `maxChars`, is an `invalid_output` LlmFailure:
 * a rewrite that grew that much is answering, not rewriting.
 */
export async function rewriteFollowUp(llm: Llm, previous: string, followUp: string, maxChars: number): Promise<string> {
  const { question } = await chatJson(llm, {
    model: llm.chatModel,
    system: REWRITE_FOLLOW_UP_PROMPT.system,
    user: rewriteFollowUpUserMessage(previous, followUp),
    schemaName: 'standalone_question',
    jsonSchema: JSON_SCHEMA,
    schema: Rewrite,
  });
  const text = question.replace(/\s+/g, ' ').trim();
  if (text === '') throw new LlmFailure('invalid_output', 'the rewrite is empty');
  if (text.length > maxChars) throw new LlmFailure('invalid_output', `the rewrite is ${text.length} characters (limit ${maxChars})`);
  return text;
}
