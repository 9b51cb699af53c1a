import { z } from 'zod';

import { plainIssue } from './plain-issue.js';

/** What a model costs, in USD per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  /** Prompt tokens the provider served from its cache; unset: priced as `input`. */
  readonly cachedInput?: number | undefined;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** A CANDOR_LLM_PRICES value that works. */
export const PRICES_EXAMPLE =
  '{"gpt-4o-mini":{"input":0.15,"output":0.6},"my-azure-deployment":{"input":2.5,"output":10,"cachedInput":1.25}}';
const usd = z.number().min(0).max(10_000);
const Price = z.object({ input: usd, output: usd, cachedInput: usd.optional() }).strict();

/** CANDOR_LLM_PRICES: a JSON object of model → USD per million tokens, over (and beside) the defaults. */
export const modelPricesSetting = z.string().transform((text, ctx): Record<string, ModelPrice> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON object of model → USD per million tokens (this is not valid JSON)' });
    return z.NEVER;
  }
  const parsed = z.record(z.string().min(1).max(200), Price).safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || 'value'}: ${plainIssue(i)}`).join('; ');
    ctx.addIssue({ code: 'custom', message: issues });
    return z.NEVER;
  }
  return parsed.data;
});
