/** Prompt `entailment`: the optional second grounding check. New text = new version. */
export const ENTAILMENT_PROMPT = {
  id: 'entailment',
  version: '2026-11-1',
  system: `You check an answer against the facts it cites. The answer is entailed only if every statement in it follows from the facts alone: nothing added, nothing generalised, no condition dropped.

Reply with a JSON object only: {"entailed": boolean, "reasoning": string}.`,
} as const;

export function entailmentUserMessage(answer: string, facts: readonly string[]): string {
  return `Facts:\n${facts.map((f, i) => `[${i + 1}] ${f}`).join('\n')}\n\nAnswer:\n${answer}`;
}
