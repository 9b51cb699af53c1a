import type { Span } from '@opentelemetry/api';
import OpenAI from 'openai';
import type { z } from 'zod';

import { GEN_AI } from '../telemetry/attributes.js';
import { instruments } from '../telemetry/instruments.js';
import { metricKb } from '../telemetry/metric-context.js';
import { withClientSpan } from '../telemetry/with-span.js';
import type { Llm } from './llm-client.js';
import { LlmFailure } from './llm-failure.js';
import { costUsd, priceOf } from './model-prices.js';

export interface JsonCall<T> {
  readonly model: string;
  readonly system: string;
  readonly user: string;
  /** Name and JSON Schema for structured outputs. */
  readonly schemaName: string;
  readonly jsonSchema: Record<string, unknown>;
  /** Validates what comes back, whichever way it was asked for. */
  readonly schema: z.ZodType<T>;
  /** Put the prompt and the completion on the span (CANDOR_TRACE_CONTENT). */
  readonly traceContent?: boolean;
}

/** Servers that refused a JSON schema once are asked in JSON mode from then on. */
const schemaRefused = new WeakSet<OpenAI>();

/**
 * One chat completion that must return a JSON object matching `schema`, as a
 * `chat <model>` span with the OpenTelemetry GenAI attributes. Structured
 * outputs (a JSON schema) are used where the server supports them; JSON mode
 * and strict validation otherwise. Every failure is an LlmFailure: nothing
 * from an unusable output gets through.
 */
export async function chatJson<T>(llm: Llm, call: JsonCall<T>): Promise<T> {
  return llm.limit(() =>
    withClientSpan(
      `chat ${call.model}`,
      {
        [GEN_AI.operationName]: 'chat',
        [GEN_AI.providerName]: llm.providerName,
        // The attribute gen_ai.provider.name replaced; kept for backends that still read it.
        [GEN_AI.system]: llm.providerName,
        [GEN_AI.requestModel]: call.model,
        [GEN_AI.outputType]: 'json',
        [GEN_AI.serverAddress]: llm.serverAddress,
        [GEN_AI.serverPort]: llm.serverPort,
      },
      async (span) => {
        const started = performance.now();
        const attrs = { [GEN_AI.operationName]: 'chat', [GEN_AI.providerName]: llm.providerName, [GEN_AI.requestModel]: call.model };
        try {
          const mode =
            llm.structured === 'json_object' || (llm.structured === 'auto' && schemaRefused.has(llm.client))
              ? 'json_object'
              : 'json_schema';
          let completion;
          try {
            completion = await create(llm, call, mode);
          } catch (error) {
            if (mode === 'json_schema' && llm.structured === 'auto' && rejectsSchema(error)) {
              schemaRefused.add(llm.client);
              span.addEvent('structured outputs refused; retrying in JSON mode');
              completion = await create(llm, call, 'json_object');
            } else {
              throw error;
            }
          }
          return read(llm, completion, call, span, attrs);
        } catch (error) {
          const failure = toFailure(error);
          span.setAttribute('error.type', failure.code);
          throw failure;
        } finally {
          instruments.operationDuration().record((performance.now() - started) / 1000, attrs);
        }
      },
    ),
  );
}

function create<T>(llm: Llm, call: JsonCall<T>, mode: 'json_schema' | 'json_object') {
  return llm.client.chat.completions.create({
    model: call.model,
    temperature: 0,
    messages: [
      { role: 'system', content: call.system },
      { role: 'user', content: call.user },
    ],
    response_format:
      mode === 'json_schema'
        ? { type: 'json_schema', json_schema: { name: call.schemaName, strict: true, schema: call.jsonSchema } }
        : { type: 'json_object' },
  });
}

function read<T>(
  llm: Llm,
  completion: OpenAI.Chat.Completions.ChatCompletion,
  call: JsonCall<T>,
  span: Span,
  attrs: Record<string, string>,
): T {
  const choice = completion.choices[0];
  span.setAttributes({
    [GEN_AI.responseModel]: completion.model,
    [GEN_AI.responseId]: completion.id,
    [GEN_AI.finishReasons]: completion.choices.map((c) => c.finish_reason ?? 'unknown'),
  });
  if (completion.usage) {
    span.setAttributes({ [GEN_AI.inputTokens]: completion.usage.prompt_tokens, [GEN_AI.outputTokens]: completion.usage.completion_tokens });
    const withModel = { ...attrs, [GEN_AI.responseModel]: completion.model };
    instruments.tokenUsage().record(completion.usage.prompt_tokens, { ...withModel, [GEN_AI.tokenType]: 'input' });
    instruments.tokenUsage().record(completion.usage.completion_tokens, { ...withModel, [GEN_AI.tokenType]: 'output' });
    const price = priceOf(llm.prices, completion.model) ?? priceOf(llm.prices, call.model);
    const usage = {
      input: completion.usage.prompt_tokens,
      output: completion.usage.completion_tokens,
      cachedInput: completion.usage.prompt_tokens_details?.cached_tokens,
    };
    instruments.llmCost().add(costUsd(price, usage), { ...withModel, ...metricKb() });
  }
  if (!choice) throw new LlmFailure('invalid_output', 'the model returned no choices');
  if (choice.message.refusal) throw new LlmFailure('invalid_output', 'the model refused to answer');
  if (choice.finish_reason === 'length') throw new LlmFailure('invalid_output', 'the output was cut off (finish_reason "length")');
  if (choice.finish_reason === 'content_filter') throw new LlmFailure('invalid_output', 'the output was withheld by a content filter');
  const content = choice.message.content ?? '';
  if (call.traceContent) span.setAttribute(GEN_AI.completion, content);
  let json: unknown;
  try {
    json = JSON.parse(stripFence(content));
  } catch {
    throw new LlmFailure('invalid_output', 'the output is not JSON');
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    throw new LlmFailure(
      'invalid_output',
      `the output does not match the schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** Some servers wrap JSON mode output in a Markdown fence; nothing else is forgiven. */
function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(text);
  return fenced ? (fenced[1] as string) : text;
}

function rejectsSchema(error: unknown): boolean {
  return error instanceof OpenAI.APIError && error.status === 400 && /response_format|json_schema|structured/i.test(error.message);
}

export function toFailure(error: unknown): LlmFailure {
  if (error instanceof LlmFailure) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new LlmFailure('llm_unavailable', 'the model did not answer in time', { cause: error });
  if (error instanceof OpenAI.APIConnectionError)
    return new LlmFailure('llm_unavailable', 'the model endpoint could not be reached', { cause: error });
  if (error instanceof OpenAI.APIError)
    return new LlmFailure('llm_unavailable', `the model endpoint answered ${error.status ?? 'an error'}`, { cause: error });
  return new LlmFailure('llm_unavailable', (error as Error).message, { cause: error });
}
