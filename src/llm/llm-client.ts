import OpenAI, { AzureOpenAI } from 'openai';

import type { LlmSettings } from '../config.js';
import { llmEndpoint } from './llm-endpoint.js';
import { DEFAULT_MODEL_PRICES, type PriceTable } from './model-prices.js';

/** The configured model endpoint: one client, the model names, and a bound on calls in flight. */
export interface Llm {
  readonly client: OpenAI;
  readonly provider: LlmSettings['provider'];
  /** `gen_ai.provider.name`: "openai", "azure.ai.openai", "ollama", … (see llmEndpoint). */
  readonly providerName: string;
  /** `server.address` and `server.port` of the model endpoint. */
  readonly serverAddress: string;
  readonly serverPort: number;
  /** USD per million tokens by model (candor.llm.cost): the defaults and CANDOR_LLM_PRICES; for Ollama only the latter. */
  readonly prices: PriceTable;
  readonly chatModel: string;
  readonly judgeModel: string;
  readonly embeddingModel: string | undefined;
  readonly structured: LlmSettings['structured'];
  readonly entailment: boolean;
  /** Runs `fn` when fewer than CANDOR_LLM_CONCURRENCY calls are in flight. */
  limit<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Builds the client from settings. Timeouts and retries are the openai
 * package's own: each request times out after CANDOR_LLM_TIMEOUT_MS and
 * 408/409/429/5xx and connection errors are retried CANDOR_LLM_MAX_RETRIES
 * times with exponential backoff, honouring Retry-After.
 */
export function createLlm(settings: LlmSettings): Llm {
  const common = { timeout: settings.timeoutMs, maxRetries: settings.maxRetries };
  const client =
    settings.provider === 'azure' && settings.azure
      ? new AzureOpenAI({
          ...common,
          endpoint: settings.azure.endpoint,
          deployment: settings.azure.deployment,
          apiVersion: settings.azure.apiVersion,
          apiKey: settings.apiKey,
        })
      : new OpenAI({
          ...common,
          // Local servers (Ollama, vLLM) ignore the key, but the client insists on one.
          apiKey: settings.apiKey ?? 'not-needed',
          baseURL: settings.baseUrl ?? 'https://api.openai.com/v1',
          organization: null,
          project: null,
        });
  const endpoint = llmEndpoint(settings);
  return {
    client,
    provider: settings.provider,
    ...endpoint,
    // A local model costs nothing per token unless a price is configured for it.
    prices: endpoint.providerName === 'ollama' ? { ...settings.prices } : { ...DEFAULT_MODEL_PRICES, ...settings.prices },
    chatModel: settings.provider === 'azure' && settings.azure ? settings.azure.deployment : settings.chatModel,
    judgeModel: settings.judgeModel,
    embeddingModel: settings.embeddingModel,
    structured: settings.structured,
    entailment: settings.entailment,
    limit: concurrencyLimit(settings.concurrency),
  };
}

/** A counting semaphore: at most `n` calls run at once, the rest wait in order. */
export function concurrencyLimit(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await fn();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
