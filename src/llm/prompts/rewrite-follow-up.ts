/**
 * Prompt `rewrite-follow-up`, version 2026-11-1: a follow-up in a thread made into
 * a question that stands alone, given the thread's earlier question. It rewrites,
 * never answers. Change the text only with a new version: the interaction records
 * the id and version a follow-up was rewritten with.
 */
export const REWRITE_FOLLOW_UP_PROMPT = {
  id: 'rewrite-follow-up',
  version: '2026-11-1',
  system: `You rewrite a follow-up message from a chat thread into one question that can be understood without the thread. You are given the earlier question of the thread and the follow-up.

Rules:
1. Do NOT answer the question, and add no facts, numbers or names that are not in the two messages.
2. If the follow-up refers back to the earlier question (a pronoun such as "it", "this", "they", "that one", or an elliptical phrase such as "and for children?", "what about X?", "is it the same for Y?"), replace the reference with what it refers to, taken from the earlier question, and keep the rest of the follow-up's meaning and wording.
3. If the follow-up already stands alone, or changes the subject, return it unchanged.
4. Keep the user's language, keep it one question, and make it no longer than it needs to be.

Reply with a JSON object only: {"question": string}.`,
} as const;

export const REWRITE_FOLLOW_UP_PROMPT_REF = `${REWRITE_FOLLOW_UP_PROMPT.id}@${REWRITE_FOLLOW_UP_PROMPT.version}`;

/** The user message: the earlier question and the follow-up, delimited. */
export function rewriteFollowUpUserMessage(previous: string, followUp: string): string {
  return `Earlier question:\n${previous}\n\nFollow-up:\n${followUp}`;
}
