import { DONT_KNOW_CATEGORIES, type DontKnowCategory } from '../../core/eval/dontknow-categories.js';

/**
 * Prompt `generate-question` (KnowOrNot stage 2): from one atomic fact, questions
 * that this fact alone answers, each with its expected answer taken from the
 * fact. New text = new version (the version is recorded with every question).
 */
export const FACT_QUESTION_PROMPT = {
  id: 'generate-question',
  version: '2026-11-1',
  system: `You write test questions for a question-answering bot that answers only from a knowledge base of atomic facts.

You are given ONE fact. Write questions that a real user might ask and that this fact answers on its own.
Rules:
1. Each question is self-contained: name the scheme, form, product or subject; no "it", "this" or "the above".
2. The fact must be enough to answer it fully; do not ask for anything the fact does not state.
3. Ask for the specific thing this fact states (its amount, date, condition, step or party), so that a knowledge base without this fact could not answer it.
4. Do not copy the fact's sentence; ask as a user would.
5. "answer" is the answer as the fact states it, in one or two sentences, with its numbers and conditions exactly as written.

Reply with a JSON object only: {"questions": [{"question": string, "answer": string}]}.`,
} as const;

export function factQuestionUserMessage(fact: { readonly text: string; readonly heading: string | null }, count: number): string {
  return `${fact.heading ? `Section: ${fact.heading}\n` : ''}Fact: ${fact.text}\n\nWrite ${count} question${count === 1 ? '' : 's'}.`;
}

/**
 * Prompt `dontknow-questions`: questions of one "dontknowness" category for a
 * knowledge base, given a sample of its topics. The bot should decline all of them.
 */
export const DONT_KNOW_PROMPT = {
  id: 'dontknow-questions',
  version: '2026-11-1',
  system: `You write test questions that a question-answering bot should decline, because its knowledge base does not answer them.

You are given a sample of the knowledge base's topics and one category. Write questions of that category only:
- uncitable-unrelated: ${DONT_KNOW_CATEGORIES['uncitable-unrelated']}.
- uncitable-related: ${DONT_KNOW_CATEGORIES['uncitable-related']}.
- unknowable: ${DONT_KNOW_CATEGORIES.unknowable}.
- nonsensical: ${DONT_KNOW_CATEGORIES.nonsensical}.
Each question is self-contained, phrased as a real user would, and different from the others.

Reply with a JSON object only: {"questions": [string]}.`,
} as const;

export function dontKnowUserMessage(category: DontKnowCategory, topics: readonly string[], count: number): string {
  return `Category: ${category}\nTopics the knowledge base covers:\n${topics.map((t) => `- ${t}`).join('\n')}\n\nWrite ${count} question${count === 1 ? '' : 's'}.`;
}
