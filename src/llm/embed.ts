import { GEN_AI } from '../telemetry/attributes.js';
import { instruments } from '../telemetry/instruments.js';
import { metricKb } from '../telemetry/metric-context.js';
import { withClientSpan } from '../telemetry/with-span.js';
import { toFailure } from './chat-json.js';
import type { Llm } from './llm-client.js';
import { costUsd, priceOf } from './model-prices.js';

/** Embeds texts with the configured embedding model, as one `embeddings <model>` span; unit-length vectors. */
export async function embedTexts(llm: Llm, texts: readonly string[]): Promise<Float32Array[]> {
  const model = llm.embeddingModel;
  if (!model) throw new Error('no embedding model is configured (CANDOR_EMBEDDING_MODEL)');
  if (texts.length === 0) return [];
  return llm.limit(() =>
    withClientSpan(
      `embeddings ${model}`,
      {
        [GEN_AI.operationName]: 'embeddings',
        [GEN_AI.providerName]: llm.providerName,
        [GEN_AI.requestModel]: model,
        [GEN_AI.serverAddress]: llm.serverAddress,
        [GEN_AI.serverPort]: llm.serverPort,
      },
      async (span) => {
        try {
          const response = await llm.client.embeddings.create({ model, input: [...texts], encoding_format: 'float' });
          span.setAttributes({ [GEN_AI.responseModel]: response.model, [GEN_AI.inputTokens]: response.usage?.prompt_tokens ?? 0 });
          const attrs = {
            [GEN_AI.operationName]: 'embeddings',
            [GEN_AI.providerName]: llm.providerName,
            [GEN_AI.requestModel]: model,
            [GEN_AI.responseModel]: response.model,
          };
          const tokens = response.usage?.prompt_tokens ?? 0;
          instruments.tokenUsage().record(tokens, { ...attrs, [GEN_AI.tokenType]: 'input' });
          const price = priceOf(llm.prices, response.model) ?? priceOf(llm.prices, model);
          instruments.llmCost().add(costUsd(price, { input: tokens, output: 0 }), { ...attrs, ...metricKb() });
          const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => unit(d.embedding));
          if (vectors.length !== texts.length) throw new Error(`asked for ${texts.length} embeddings, got ${vectors.length}`);
          return vectors;
        } catch (error) {
          throw toFailure(error);
        }
      },
    ),
  );
}

export function unit(values: readonly number[]): Float32Array {
  const v = Float32Array.from(values);
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return v;
}
