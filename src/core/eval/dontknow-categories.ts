/**
 * The question categories of the "dontknowness" evaluator: questions a bot
 * answering from a knowledge base should decline, each for a different reason.
 * Generated questions carry one of these, or `fact` (answered by one fact).
 */
export const DONT_KNOW_CATEGORIES = {
  'uncitable-unrelated': 'on a subject the knowledge base does not cover at all, so there is nothing to cite',
  'uncitable-related': "on the knowledge base's subject, plausible, but asking for something none of its facts states",
  unknowable: 'that no source could answer: the future, a private or personal circumstance, an opinion, a counterfactual',
  nonsensical: 'that is incoherent or rests on a false premise about the subject (mixing up its terms)',
} as const;

export type DontKnowCategory = keyof typeof DONT_KNOW_CATEGORIES;
export const DONT_KNOW_CATEGORY_IDS = Object.keys(DONT_KNOW_CATEGORIES) as DontKnowCategory[];
/** The category of a question one fact answers. */
export const FACT_CATEGORY = 'fact';

export function isDontKnowCategory(value: string): value is DontKnowCategory {
  return value in DONT_KNOW_CATEGORIES;
}
