import type { FeedbackKind } from '../../feedback/asker-feedback.js';

/** The action ids of the buttons under a reply. Every button's value is the reply's signed interaction value. */
export const REPLY_ACTION = {
  helpful: 'candor_helpful',
  notHelpful: 'candor_not_helpful',
  askExpert: 'candor_ask_expert',
} as const;

/** What a delivered reply carries for its buttons. */
export interface ReplyButtons {
  /** The signed value naming the reply's interaction (ExpertDesk.interactionAction). */
  readonly action: string;
  /** Whether the reply's KB has experts to ask. */
  readonly askExpert: boolean;
}

/** What the buttons under a reply show: kept in the actions block's id, so a press re-renders from the message alone. */
export interface ReplyActionsState {
  readonly kind: 'answer' | 'refusal';
  readonly experts: boolean;
  readonly chosen: FeedbackKind | null;
  readonly asked: boolean;
}

export interface SlackButton {
  readonly type: 'button';
  readonly action_id: string;
  readonly text: { readonly type: 'plain_text'; readonly text: string; readonly emoji: true };
  readonly value: string;
  readonly style?: 'primary' | 'danger';
}

export interface SlackActionsBlock {
  readonly type: 'actions';
  readonly block_id: string;
  readonly elements: SlackButton[];
}

const BLOCK_PREFIX = 'candor_reply';
const NOTE_BLOCK = 'candor_reply_note';
const BLOCK_ID = /^candor_reply:(answer|refusal):([01]):(helpful|not_helpful|-):([01])$/;

/** The buttons a fresh reply gets, or null when it gets none (a refusal in a KB without experts). */
export function initialReplyActions(decision: 'answer' | 'abstain', askExpert: boolean): ReplyActionsState | null {
  if (decision === 'abstain' && !askExpert) return null;
  return { kind: decision === 'answer' ? 'answer' : 'refusal', experts: askExpert, chosen: null, asked: false };
}

/**
 * 👍/👎 on answers, and "Ask an expert" on refusals — and on an answer found
 * not helpful — when the KB has experts. The chosen button is marked.
 */
export function replyActionsBlock(action: string, state: ReplyActionsState): SlackActionsBlock {
  const button = (action_id: string, text: string, style?: 'primary' | 'danger'): SlackButton => ({
    type: 'button',
    action_id,
    text: { type: 'plain_text', text, emoji: true },
    value: action,
    ...(style ? { style } : {}),
  });
  const elements: SlackButton[] = [];
  if (state.kind === 'answer') {
    elements.push(
      state.chosen === 'helpful' ? button(REPLY_ACTION.helpful, '✓ Helpful', 'primary') : button(REPLY_ACTION.helpful, '👍 Helpful'),
      state.chosen === 'not_helpful'
        ? button(REPLY_ACTION.notHelpful, '✓ Not helpful', 'primary')
        : button(REPLY_ACTION.notHelpful, '👎 Not helpful'),
    );
  }
  const offerExpert = state.experts && (state.kind === 'refusal' || state.chosen === 'not_helpful' || state.asked);
  if (offerExpert)
    elements.push(state.asked ? button(REPLY_ACTION.askExpert, 'Asked an expert ✓') : button(REPLY_ACTION.askExpert, 'Ask an expert'));
  const flag = (b: boolean) => (b ? '1' : '0');
  return {
    type: 'actions',
    block_id: `${BLOCK_PREFIX}:${state.kind}:${flag(state.experts)}:${state.chosen ?? '-'}:${flag(state.asked)}`,
    elements,
  };
}

/** The state of a reply's buttons, read from the message's blocks as Slack sends them back; null when it has none. */
export function readReplyActions(blocks: readonly unknown[]): ReplyActionsState | null {
  for (const block of blocks) {
    const id = (block as { block_id?: unknown } | null)?.block_id;
    const match = typeof id === 'string' ? BLOCK_ID.exec(id) : null;
    if (match)
      return {
        kind: match[1] as ReplyActionsState['kind'],
        experts: match[2] === '1',
        chosen: match[3] === '-' ? null : (match[3] as FeedbackKind),
        asked: match[4] === '1',
      };
  }
  return null;
}

/**
 * The message's blocks with its buttons re-rendered for `state` and a short
 * note under them (replacing an earlier note). Other blocks are kept as they are.
 */
export function withReplyActions(blocks: readonly unknown[], action: string, state: ReplyActionsState, note: string): unknown[] {
  const kept = blocks.filter((b) => (b as { block_id?: unknown } | null)?.block_id !== NOTE_BLOCK);
  const at = kept.findIndex((b) => String((b as { block_id?: unknown } | null)?.block_id ?? '').startsWith(`${BLOCK_PREFIX}:`));
  const rendered = [
    replyActionsBlock(action, state),
    { type: 'context', block_id: NOTE_BLOCK, elements: [{ type: 'plain_text', text: note, emoji: true }] },
  ];
  return at === -1 ? [...kept, ...rendered] : [...kept.slice(0, at), ...rendered, ...kept.slice(at + 1)];
}
