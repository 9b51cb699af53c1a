import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config.js';
import { createLlm } from '../../src/llm/llm-client.js';
import { llmEndpoint } from '../../src/llm/llm-endpoint.js';
import { costUsd, DEFAULT_MODEL_PRICES, priceOf } from '../../src/llm/model-prices.js';
import { tempFiles } from '../support/compose.js';

const compatible = (baseUrl: string, providerName?: string) => llmEndpoint({ provider: 'openai-compatible', baseUrl, providerName });

describe('gen_ai.provider.name and server.* of the configured model', () => {
  it('names the provider from the endpoint, and puts the host and port on server.*', () => {
    expect(llmEndpoint({ provider: 'openai' })).toEqual({ providerName: 'openai', serverAddress: 'api.openai.com', serverPort: 443 });
    expect(llmEndpoint({ provider: 'azure', azure: { endpoint: 'https://contoso.openai.azure.com/' } })).toEqual({
      providerName: 'azure.ai.openai',
      serverAddress: 'contoso.openai.azure.com',
      serverPort: 443,
    });
    expect(compatible('https://api.openai.com/v1')).toMatchObject({ providerName: 'openai' });
    expect(compatible('https://contoso.openai.azure.com/openai/v1')).toMatchObject({ providerName: 'azure.ai.openai' });
    expect(compatible('http://127.0.0.1:11434/v1')).toEqual({ providerName: 'ollama', serverAddress: '127.0.0.1', serverPort: 11434 });
    expect(compatible('http://ollama.internal:8080/v1')).toMatchObject({ providerName: 'ollama', serverPort: 8080 });
    expect(compatible('https://api.groq.com/openai/v1')).toMatchObject({ providerName: 'groq' });
    // Any other OpenAI-compatible server (vLLM, LiteLLM, a gateway) speaks the OpenAI API; the host is on server.address.
    expect(compatible('http://127.0.0.1:18080/v1')).toEqual({ providerName: 'openai', serverAddress: '127.0.0.1', serverPort: 18080 });
    expect(compatible('http://vllm.internal/v1')).toEqual({ providerName: 'openai', serverAddress: 'vllm.internal', serverPort: 80 });
    expect(compatible('http://[::1]:8000/v1')).toMatchObject({ serverAddress: '::1', serverPort: 8000 });
  });

  it('CANDOR_LLM_PROVIDER names it when set; a malformed one stops start-up', () => {
    expect(compatible('http://127.0.0.1:8000/v1', 'vllm')).toMatchObject({ providerName: 'vllm', serverPort: 8000 });
    const config = loadConfig({ OPENAI_BASE_URL: 'http://gpu-1:8000/v1', CANDOR_LLM_PROVIDER: 'vllm' });
    expect(createLlm(config.llm!)).toMatchObject({ providerName: 'vllm', serverAddress: 'gpu-1', serverPort: 8000 });
    expect(() => loadConfig({ OPENAI_BASE_URL: 'http://gpu-1:8000/v1', CANDOR_LLM_PROVIDER: 'My vLLM' })).toThrow(
      /CANDOR_LLM_PROVIDER: "My vLLM" is not a provider name such as openai, azure.ai.openai, ollama; for example CANDOR_LLM_PROVIDER=openai/,
    );
  });
});

describe('model prices (candor.llm.cost)', () => {
  it('prices a dated snapshot as its family, the longest name first; an unknown model costs nothing', () => {
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4o-2024-08-06')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o']);
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4.1-nano')).toEqual({ input: 0.1, output: 0.4, cachedInput: 0.025 });
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4oo')).toBeUndefined();
    expect(priceOf(DEFAULT_MODEL_PRICES, 'llama3.1:8b')).toBeUndefined();
    expect(costUsd(undefined, { input: 1_000_000, output: 1_000_000 })).toBe(0);
  });

  it('costs input, cached input and output tokens at their price per million', () => {
    const price = { input: 2.5, output: 10, cachedInput: 1.25 };
    expect(costUsd(price, { input: 1000, output: 500 })).toBeCloseTo(0.0075, 12);
    expect(costUsd(price, { input: 1000, output: 0, cachedInput: 400 })).toBeCloseTo((600 * 2.5 + 400 * 1.25) / 1e6, 12);
    expect(costUsd({ input: 3, output: 0 }, { input: 1000, output: 0, cachedInput: 400 })).toBeCloseTo(0.003, 12);
  });

  it('CANDOR_LLM_PRICES (environment or config file) adds and overrides prices; Ollama uses only those', () => {
    const files = tempFiles({});
    try {
      const prices = { 'gpt-4o-mini': { input: 0.1, output: 0.5 }, 'my-deployment': { input: 2, output: 8, cachedInput: 1 } };
      const fromEnv = createLlm(loadConfig({ OPENAI_API_KEY: 'sk-test', CANDOR_LLM_PRICES: JSON.stringify(prices) }).llm!).prices;
      expect(fromEnv['gpt-4o-mini']).toEqual({ input: 0.1, output: 0.5 });
      expect(fromEnv['my-deployment']).toEqual({ input: 2, output: 8, cachedInput: 1 });
      expect(fromEnv['gpt-4.1']).toEqual(DEFAULT_MODEL_PRICES['gpt-4.1']);
      const path = files.write('candor.json', JSON.stringify({ OPENAI_API_KEY: 'sk-test', CANDOR_LLM_PRICES: prices }));
      expect(createLlm(loadConfig({ CANDOR_CONFIG: path }).llm!).prices['my-deployment']).toEqual(prices['my-deployment']);

      const ollama = createLlm(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', CANDOR_CHAT_MODEL: 'gpt-4o' }).llm!);
      expect(ollama.providerName).toBe('ollama');
      expect(priceOf(ollama.prices, 'gpt-4o')).toBeUndefined();

      expect(() => loadConfig({ OPENAI_API_KEY: 'sk-test', CANDOR_LLM_PRICES: '{"gpt-4o":{"input":-1,"output":1}}' })).toThrow(
        /CANDOR_LLM_PRICES: ".*" is not valid: gpt-4o\.input: must be at least 0; for example CANDOR_LLM_PRICES='\{/,
      );
      expect(() => loadConfig({ OPENAI_API_KEY: 'sk-test', CANDOR_LLM_PRICES: '{"gpt-4o":{"in":1}}' })).toThrow(/CANDOR_LLM_PRICES: /);
      expect(() => loadConfig({ OPENAI_API_KEY: 'sk-test', CANDOR_LLM_PRICES: 'cheap' })).toThrow(/not valid JSON/);
    } finally {
      files.cleanup();
    }
  });
});
