/**
 * Questions about the example KB that the benches ask: answered ones, an unknown
 * identifier (ADR-0050) and off-topic ones, so both the answer and refusal paths run.
 * The Slack bench asks the first five (its published figures were measured with them).
 */
export const EXAMPLE_KB_QUESTIONS = [
  'Who needs to pay Additional Premiums?',
  'What does MediShield Life cover?',
  'What does ADR-0050 say about retention?',
  'How do I claim for a hospital bill?',
  'What is the speed limit on expressways?',
  'Is there a shuttle bus from the train station?',
  'When must I renew my driving licence?',
  'What are the premiums for a 45-year-old?',
] as const;
