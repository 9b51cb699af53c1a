/**
 * The words that frame a question rather than name its topic: the adverb after "how" ("how much", "how many",
 * "how long", "how often", "how soon", "how far", "how fast") asks for an amount, a count, a duration or a
 * speed — the gate's answer type says which — and is never content: a fact answers "how long" with "6 weeks",
 * not with the word "long". ("what", "which", "who", "can I", "do I" are stop words already.)
 */
const HOW_FRAME = /\b(how)\s+(?:much|many|long|often|soon|far|fast)\b/gi;

/** "How long does a sabbatical last?", "how long will it take?": the verb only carries the "how long". */
const DURATION_VERB = /^(.*\bhow long\b.*?)\b(?:last|lasts|take|takes)\b(?=\s*(?:for|[?.!]|$))/i;

/** The question with its scaffolding words taken out, for everything that counts a question's content terms. */
export function withoutScaffolding(text: string): string {
  return text.replace(DURATION_VERB, '$1').replace(HOW_FRAME, '$1');
}

/**
 * Words that only ever say how much or how often ("too much", "so many", "how often"): never what a question
 * is about, so never a topic's name.
 */
export const AMOUNT_WORDS: ReadonlySet<string> = new Set(['much', 'many', 'often']);
