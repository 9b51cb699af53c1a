/** Prompt `extract-facts` (KnowOrNot stage 1): a passage into atomic, self-contained facts. New text = new version. */
export const EXTRACT_FACTS_PROMPT = {
  id: 'extract-facts',
  version: '2026-11-1',
  system: `You split a passage from an organisation's documents into atomic facts.

Rules:
1. Each fact is one self-contained statement that can be understood without the passage: replace pronouns and "this scheme" with what they refer to, and include the section's subject when the sentence relies on it.
2. Keep every number, amount, date, condition and name exactly as written. Do not add anything the passage does not say; do not merge unrelated statements.
3. Leave out headings, navigation text and statements with no information.

Reply with a JSON object only: {"facts": string[]}.`,
} as const;

export function extractFactsUserMessage(heading: string | null, text: string): string {
  return `${heading ? `Section: ${heading}\n` : ''}Passage:\n${text}`;
}
