import { z } from 'zod';

import { chatJson } from './chat-json.js';
import type { Llm } from './llm-client.js';
import { EXTRACT_FACTS_PROMPT, extractFactsUserMessage } from './prompts/extract-facts.js';

const ExtractedFacts = z.object({ facts: z.array(z.string().max(2000)).max(200) });

const JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['facts'],
  properties: { facts: { type: 'array', items: { type: 'string' } } },
} as const;

/** Asks the model to split one passage into atomic, self-contained facts. */
export async function extractFacts(llm: Llm, passage: { readonly heading: string | null; readonly text: string }): Promise<string[]> {
  const result = await chatJson(llm, {
    model: llm.chatModel,
    system: EXTRACT_FACTS_PROMPT.system,
    user: extractFactsUserMessage(passage.heading, passage.text),
    schemaName: 'extracted_facts',
    jsonSchema: JSON_SCHEMA,
    schema: ExtractedFacts,
  });
  return result.facts;
}
