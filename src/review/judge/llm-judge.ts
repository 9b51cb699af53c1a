import { z } from 'zod';

import { chatJson } from '../../llm/chat-json.js';
import type { Llm } from '../../llm/llm-client.js';
import { LlmFailure } from '../../llm/llm-failure.js';
import { JUDGE_PROMPT, judgeUserMessage } from '../../llm/prompts/judge.js';
import type { ReviewItem } from '../review-items.js';
import type { JudgeSpec } from './judge-specs.js';

/**
 * Applies a judge spec to one item through the model (structured output,
 * validated: the label must be one of the spec's outcomes); the reasoning is
 * kept with the label (the console's disagreement list shows it).
 */
export async function judgeWithLlm(llm: Llm, spec: JudgeSpec, item: ReviewItem): Promise<{ label: string; reasoning: string }> {
  if (spec.promptId !== JUDGE_PROMPT.id || spec.promptVersion !== JUDGE_PROMPT.version) {
    throw new LlmFailure(
      'invalid_output',
      `judge ${spec.name}@${spec.version} asks for prompt ${spec.promptId}@${spec.promptVersion}, which this build does not have (it has ${JUDGE_PROMPT.id}@${JUDGE_PROMPT.version})`,
    );
  }
  const outcomes = spec.outcomes as [string, ...string[]];
  const result = await chatJson(llm, {
    model: spec.model,
    system: JUDGE_PROMPT.system,
    user: judgeUserMessage({ name: spec.task, criteria: spec.criteria, outcomes }, item),
    schemaName: 'judge_label',
    jsonSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['label', 'reasoning'],
      properties: { label: { type: 'string', enum: outcomes }, reasoning: { type: 'string' } },
    },
    schema: z.object({ label: z.enum(outcomes), reasoning: z.string().max(4000) }),
  });
  return { label: result.label, reasoning: result.reasoning };
}
