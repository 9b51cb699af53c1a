import { CandorError } from '../kernel/errors.js';

/** An expert answer is a fact people read in one go: longer text is refused with a clear message. */
export const MAX_EXPERT_ANSWER_CHARS = 4000;

/** Trims and checks an expert's answer text; throws a CandorError a person can act on. */
export function checkedAnswerText(text: string): string {
  const cleaned = text.replace(/\u0000/g, '').trim();
  if (cleaned === '') throw new CandorError('input_invalid', 'The answer is empty: write the answer people should get.', { status: 400 });
  if (cleaned.length > MAX_EXPERT_ANSWER_CHARS)
    throw new CandorError('input_invalid', `The answer is ${cleaned.length} characters; keep it under ${MAX_EXPERT_ANSWER_CHARS}.`, {
      status: 400,
    });
  return cleaned;
}
