import { z } from 'zod';

import { FEEDBACK_REASON_TEXT, FEEDBACK_REASONS, type FeedbackKind, type FeedbackReason } from '../../feedback/asker-feedback.js';
import type { Block } from './card-block.js';

/** The buttons of a reply card, and what they carry. */
export interface ReplyCardActions {
  /** The signed value every button carries: it names the reply's interaction (ExpertDesk.interactionAction). */
  readonly value: string;
  /** Whether the KB names experts: refusals, and answers found not helpful, get "Ask an expert". */
  readonly experts: boolean;
  /** The sealed copy of the card's content a press sends back, so that the card can show the choice (card-copy.ts). */
  readonly copy?: string | undefined;
  /** What the person chose, once they pressed. */
  readonly chosen?: { readonly kind: FeedbackKind; readonly reason?: FeedbackReason | undefined } | undefined;
}

/** The id of the hidden input holding the card's sealed copy: Teams sends it with every Action.Submit of the card. */
export const COPY_INPUT = 'candorCard';

/** 👍/👎 (the 👎 opening a short form: a reason and a comment) submit `{ candor: 'feedback', value, kind, reason?, comment? }`. */
export const FeedbackSubmit = z.object({
  candor: z.literal('feedback'),
  value: z.string().max(200),
  kind: z.enum(['helpful', 'not_helpful']),
  // An unanswered choice set sends "": no reason.
  reason: z.enum(FEEDBACK_REASONS).optional().catch(undefined),
  comment: z.string().max(20_000).optional().catch(undefined),
  [COPY_INPUT]: z.string().max(100_000).optional().catch(undefined),
});

/** "Ask an expert" submits `{ candor: 'ask_expert', value }`. */
export const AskExpertSubmit = z.object({ candor: z.literal('ask_expert'), value: z.string().max(200) });

/** How a choice reads on the card and in notes. */
export function choiceText(kind: FeedbackKind, reason?: FeedbackReason): string {
  if (kind === 'helpful') return '👍 Helpful';
  return reason ? `👎 Not helpful (${FEEDBACK_REASON_TEXT[reason]})` : '👎 Not helpful';
}

/** The buttons (and the blocks above them) of a reply card. Valid Adaptive Card 1.4. */
export function replyActions(decision: 'answer' | 'abstain', a: ReplyCardActions): { body: Block[]; actions: Block[] } {
  const askExpert = { type: 'Action.Submit', title: 'Ask an expert', data: { candor: 'ask_expert', value: a.value } };
  if (decision === 'abstain') return { body: [], actions: a.experts ? [askExpert] : [] };
  const body: Block[] = [];
  if (a.copy !== undefined) body.push({ type: 'Input.Text', id: COPY_INPUT, value: a.copy, isVisible: false });
  if (a.chosen) {
    const said = choiceText(a.chosen.kind, a.chosen.reason);
    body.push({ type: 'TextBlock', text: `Feedback: ${said}. Thank you.`, wrap: true, size: 'Small', isSubtle: true, separator: true });
  }
  const mark = (kind: FeedbackKind, title: string) => (a.chosen?.kind === kind ? `✓ ${title}` : title);
  const actions: Block[] = [
    { type: 'Action.Submit', title: mark('helpful', '👍 Helpful'), data: { candor: 'feedback', value: a.value, kind: 'helpful' } },
    {
      type: 'Action.ShowCard',
      title: mark('not_helpful', '👎 Not helpful'),
      card: {
        type: 'AdaptiveCard',
        body: [
          {
            type: 'Input.ChoiceSet',
            id: 'reason',
            label: 'What was wrong with it?',
            style: 'expanded',
            choices: FEEDBACK_REASONS.map((r) => ({ title: FEEDBACK_REASON_TEXT[r], value: r })),
          },
          { type: 'Input.Text', id: 'comment', label: 'Anything to add? (optional)', isMultiline: true, maxLength: 1000 },
        ],
        actions: [{ type: 'Action.Submit', title: 'Send', data: { candor: 'feedback', value: a.value, kind: 'not_helpful' } }],
      },
    },
  ];
  // An answer found not helpful may go to the experts too.
  if (a.experts && a.chosen?.kind === 'not_helpful') actions.push(askExpert);
  return { body, actions };
}
