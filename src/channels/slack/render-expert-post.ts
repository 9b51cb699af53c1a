import type { ExpertCard } from '../../gaps/expert-types.js';
import { escapeMrkdwn } from './render-slack-reply.js';

/** The buttons of an experts' post; their value is the card's signed gap value. */
export const EXPERT_ACTION = { answer: 'candor_expert_answer', dismiss: 'candor_expert_dismiss' } as const;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * A question for a KB's experts: what was asked, what the bot said, the
 * facts that came closest, how many people asked; "Answer" and "Not for
 * the KB" while it is open, and once closed, the answer and who gave it (or
 * who marked it out of scope). Every text from people or the KB is escaped.
 */
export function renderExpertPost(card: ExpertCard): { text: string; blocks: object[] } {
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(`Question for the ${card.kb} experts`, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: clip(`*Question*\n${escapeMrkdwn(card.question)}`, 3000) } },
  ];
  if (card.reply)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(`*What I said*\n${escapeMrkdwn(card.reply)}`, 3000) } });
  if (card.nearby.length > 0)
    blocks.push({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: '*Closest facts in the knowledge base*' },
        ...card.nearby
          .slice(0, 9)
          .map((f, i) => ({ type: 'mrkdwn', text: clip(`[${i + 1}] ${escapeMrkdwn(f.text)} — ${escapeMrkdwn(f.source)}`, 3000) })),
      ],
    });
  const people = card.requests === 1 ? '1 person asked' : `${card.requests} people asked`;
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${people} · knowledge base ${escapeMrkdwn(card.kb)}` }] });
  if (card.state === 'answered' && card.answer) {
    const by = card.answer.by ?? card.closedBy ?? 'an expert';
    blocks.push(
      { type: 'divider' },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: clip(`:white_check_mark: *Answered by ${escapeMrkdwn(by)}*\n${escapeMrkdwn(card.answer.text)}`, 3000),
        },
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `Now fact #${card.answer.factId} of the knowledge base; the askers were told.` }],
      },
    );
  } else if (card.state === 'out_of_scope') {
    blocks.push({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: `:no_entry_sign: Marked not for the knowledge base by ${escapeMrkdwn(card.closedBy ?? 'an expert')}.` },
      ],
    });
  } else {
    blocks.push({
      type: 'actions',
      block_id: 'candor_expert',
      elements: [
        {
          type: 'button',
          action_id: EXPERT_ACTION.answer,
          text: { type: 'plain_text', text: 'Answer', emoji: false },
          style: 'primary',
          value: card.action,
        },
        {
          type: 'button',
          action_id: EXPERT_ACTION.dismiss,
          text: { type: 'plain_text', text: 'Not for the KB', emoji: false },
          value: card.action,
          confirm: {
            title: { type: 'plain_text', text: 'Not for the KB?' },
            text: { type: 'plain_text', text: 'The askers are told the knowledge base does not cover this question.' },
            confirm: { type: 'plain_text', text: 'Not for the KB' },
            deny: { type: 'plain_text', text: 'Cancel' },
          },
        },
      ],
    });
  }
  const state = card.state === 'answered' ? ' (answered)' : card.state === 'out_of_scope' ? ' (not for the KB)' : '';
  return { text: clip(`Question for the ${card.kb} experts${state}: ${escapeMrkdwn(card.question)}`, 3000), blocks };
}
