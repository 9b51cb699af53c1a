import { z } from 'zod';

import { chatJson } from './chat-json.js';
import type { Llm } from './llm-client.js';
import { ENTAILMENT_PROMPT, entailmentUserMessage } from './prompts/entailment.js';

const Entailment = z.object({ entailed: z.boolean(), reasoning: z.string().max(4000) });

const JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['entailed', 'reasoning'],
  properties: { entailed: { type: 'boolean' }, reasoning: { type: 'string' } },
} as const;

/** The model's judgement whether the cited facts entail the answer (CANDOR_LLM_ENTAILMENT). */
export function checkEntailment(llm: Llm, answer: string, facts: readonly string[]): Promise<z.infer<typeof Entailment>> {
  return chatJson(llm, {
    model: llm.judgeModel,
    system: ENTAILMENT_PROMPT.system,
    user: entailmentUserMessage(answer, facts),
    schemaName: 'entailment',
    jsonSchema: JSON_SCHEMA,
    schema: Entailment,
  });
}
