import { z } from 'zod';

import type { ExpertCard } from '../../gaps/expert-types.js';
import { adaptiveCard, type AdaptiveCard, type Block } from './render-teams-card.js';

/** The id of the card's answer input: Teams sends it with the "Answer" press. */
export const ANSWER_INPUT = 'answer';

/** "Answer" and "Not for the KB" submit `{ candor: 'expert_answer' | 'expert_dismiss', value, answer? }`. */
export const ExpertSubmit = z.object({
  candor: z.enum(['expert_answer', 'expert_dismiss']),
  value: z.string().max(200),
  [ANSWER_INPUT]: z.string().max(100_000).optional().catch(undefined),
});

const text = (value: string, extra: Block = {}): Block => ({ type: 'TextBlock', text: value, wrap: true, ...extra });
const short = (value: string, max = 1500) => (value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`);

/**
 * The experts' post in Teams: the question, what the bot said, the closest
 * facts and how many asked; while it is open, an answer box with "Answer" and
 * "Not for the KB". Once closed, what became of it instead. Pure JSON.
 */
export function renderTeamsExpertCard(card: ExpertCard): AdaptiveCard {
  const askers = card.requests === 1 ? '1 person asked' : `${card.requests} people asked`;
  const body: Block[] = [
    text(`Question for the experts of ${card.kb}`, { weight: 'Bolder', size: 'Medium' }),
    text(`“${short(card.question)}”`),
    text(`${askers}. What I said: ${short(card.reply ?? '(nothing recorded)')}`, { size: 'Small', isSubtle: true }),
  ];
  if (card.nearby.length > 0) {
    body.push(text('Closest facts in the knowledge base', { weight: 'Bolder', size: 'Small', separator: true, spacing: 'Medium' }));
    body.push(
      ...card.nearby.map((f, i) =>
        text(`${i + 1}. ${short(f.text, 600)} — ${f.source}`, { size: 'Small', isSubtle: true, spacing: 'None' }),
      ),
    );
  } else body.push(text('The knowledge base holds nothing close to it.', { size: 'Small', isSubtle: true, separator: true }));
  if (card.state === 'answered') {
    const by = card.answer?.by ?? card.closedBy ?? 'an expert';
    body.push(text(`✅ Answered by ${by}: ${short(card.answer?.text ?? '')}`, { separator: true, spacing: 'Medium' }));
    return adaptiveCard(body);
  }
  if (card.state === 'out_of_scope') {
    body.push(text(`Marked not for the knowledge base by ${card.closedBy ?? 'an expert'}.`, { separator: true, spacing: 'Medium' }));
    return adaptiveCard(body);
  }
  body.push({
    type: 'Input.Text',
    id: ANSWER_INPUT,
    label: 'Your answer (it becomes a fact of the knowledge base, cited to you)',
    isMultiline: true,
    maxLength: 4000,
    separator: true,
    spacing: 'Medium',
  });
  const submit = (title: string, candor: string) => ({ type: 'Action.Submit', title, data: { candor, value: card.action } });
  return { ...adaptiveCard(body), actions: [submit('Answer', 'expert_answer'), submit('Not for the KB', 'expert_dismiss')] };
}
