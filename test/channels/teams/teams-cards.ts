import type { RecordedCall } from '../fake-http.js';
import { post, teamsActivity, type TeamsRig } from './teams-harness.js';

/** An Adaptive Card as the bot sent it (loosely typed: tests read what they check). */
export interface SentCard {
  readonly type: string;
  readonly version: string;
  readonly body: Array<Record<string, any>>;
  readonly actions?: Array<Record<string, any>>;
}

/** The Adaptive Card a connector call carried. */
export function cardOf(call: RecordedCall): SentCard {
  const [attachment] = call.body.attachments as { contentType: string; content: SentCard }[];
  if (attachment?.contentType !== 'application/vnd.microsoft.card.adaptive') throw new Error(`no Adaptive Card in ${call.path}`);
  return attachment.content;
}

/** Every action of a card (those of a ShowCard's own card too) by title, with the inputs a press on it sends. */
function findAction(card: SentCard, title: string): { action: Record<string, any>; inputs: Array<Record<string, any>> } {
  const inputsOf = (body: Array<Record<string, any>>) => body.filter((b) => String(b.type).startsWith('Input.'));
  for (const action of card.actions ?? []) {
    if (action.title === title) return { action, inputs: inputsOf(card.body) };
    if (action.type === 'Action.ShowCard') {
      const inner = (action.card.actions as Array<Record<string, any>>).find((a) => a.title === title);
      // A press in a ShowCard's card sends its inputs and those of the card it opens from.
      if (inner) return { action: inner, inputs: [...inputsOf(card.body), ...inputsOf(action.card.body)] };
    }
  }
  throw new Error(`no action "${title}" on the card (${(card.actions ?? []).map((a) => a.title).join(', ')})`);
}

export function actionTitles(card: SentCard): string[] {
  return (card.actions ?? []).map((a) => String(a.title));
}

/** The `value` Teams sends for a press on the action titled `title`: its data, with the card's inputs (as set) merged in. */
export function pressValue(card: SentCard, title: string, typed: Record<string, string> = {}): Record<string, unknown> {
  const { action, inputs } = findAction(card, title);
  const values = Object.fromEntries(inputs.map((i) => [i.id as string, String(typed[i.id] ?? i.value ?? '')]));
  return { ...action.data, ...values };
}

export interface Presser {
  readonly id: string;
  readonly aadObjectId: string;
  readonly name: string;
}

/** Posts a card press (a message activity carrying `value`, replying to the card) as Teams sends it; returns its activity id. */
export async function press(
  rig: TeamsRig,
  at: { conversationId: string; cardId: string; from: Presser; value: Record<string, unknown>; id?: string; channel?: boolean },
): Promise<{ id: string; status: number }> {
  const { activity, id } = teamsActivity(rig.connector.url, {
    conversationId: at.conversationId,
    conversationType: at.channel ? 'channel' : 'personal',
    mention: false,
    ...(at.id ? { id: at.id } : {}),
    extra: { from: at.from, replyToId: at.cardId, value: at.value },
  });
  const response = await post(rig.messagesUrl, activity);
  return { id, status: response.status };
}

/** The path of a conversation's new messages (not replies): where the experts' posts go. */
export function conversationPath(conversationId: string): string {
  return `/v3/conversations/${encodeURIComponent(conversationId)}/activities`;
}

/** Messages the bot sent into a conversation (new or replies) whose text contains `text`. */
export function messagesIn(rig: TeamsRig, conversationId: string, text: string): RecordedCall[] {
  const prefix = conversationPath(conversationId);
  return rig.connector.calls.filter(
    (c) => c.method === 'POST' && (c.path === prefix || c.path.startsWith(`${prefix}/`)) && String(c.body.text ?? '').includes(text),
  );
}
