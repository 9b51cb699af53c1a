import type { ModelPrice, PriceTable } from '../config/model-prices-setting.js';

export type { ModelPrice, PriceTable } from '../config/model-prices-setting.js';

/**
 * OpenAI's list prices (standard tier, USD per million tokens) as published in 2025. They change: set
 * CANDOR_LLM_PRICES for your contract, Azure's regional prices or a model missing here. Dated snapshots
 * ("gpt-4o-mini-2024-07-18") are priced as their family. Local servers (Ollama) never use this table.
 */
export const DEFAULT_MODEL_PRICES: PriceTable = {
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o1: { input: 15, output: 60, cachedInput: 7.5 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
};

/** The price of a model: its own entry, else the longest entry it extends ("gpt-4o-2024-08-06" → "gpt-4o"). */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  const own = table[model];
  if (own) return own;
  let best: string | undefined;
  for (const name of Object.keys(table)) if (model.startsWith(`${name}-`) && (best === undefined || name.length > best.length)) best = name;
  return best === undefined ? undefined : table[best];
}

export interface TokenUsage {
  readonly input: number;
  readonly output: number;
  /** Of `input`, how many the provider read from its prompt cache. @default 0 */
  readonly cachedInput?: number | undefined;
}

/** The USD cost of one call's tokens; 0 without a price. */
export function costUsd(price: ModelPrice | undefined, usage: TokenUsage): number {
  if (!price) return 0;
  const cached = Math.min(usage.cachedInput ?? 0, usage.input);
  return ((usage.input - cached) * price.input + cached * (price.cachedInput ?? price.input) + usage.output * price.output) / 1e6;
}
