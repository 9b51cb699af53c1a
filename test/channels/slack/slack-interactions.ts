import { sql } from 'drizzle-orm';

import type { Db } from '../../../src/store/open-store.js';
import { waitFor, type RecordedCall } from '../fake-http.js';
import { BOT_USER, sendSigned, slackEvent, TEAM, type SlackRig } from './slack-harness.js';

// Interactive payloads (button presses, modal submissions) as Slack sends them: form posts of `payload=<json>`.

export const FORM = { contentType: 'application/x-www-form-urlencoded' } as const;

let seq = 0;

/** A message with buttons as a test presses them: where it is and the blocks Slack would send back. */
export interface PressedMessage {
  readonly channel: string;
  readonly ts: string;
  readonly threadTs?: string | undefined;
  readonly text?: string;
  readonly blocks: readonly Record<string, any>[];
}

/** A block_actions payload: `user` pressed the button `actionId` (with `value`) on `message`. */
export function buttonPress(spec: {
  user: string;
  actionId: string;
  value: string;
  message: PressedMessage;
  triggerId?: string;
  name?: string;
}): { body: string; triggerId: string } {
  const triggerId = spec.triggerId ?? `trig-${Date.now()}-${++seq}`;
  const { message } = spec;
  const payload = {
    type: 'block_actions',
    team: { id: TEAM, domain: 'candor-test' },
    user: { id: spec.user, username: spec.user.toLowerCase(), name: spec.name ?? spec.user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A0CANDOR',
    token: 'x',
    trigger_id: triggerId,
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: message.channel,
      is_ephemeral: false,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    },
    channel: { id: message.channel, name: 'general' },
    message: {
      type: 'message',
      user: BOT_USER,
      ts: message.ts,
      text: message.text ?? 'reply',
      blocks: message.blocks,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    },
    response_url: 'https://hooks.slack.invalid/response',
    actions: [{ type: 'button', action_id: spec.actionId, block_id: 'b', value: spec.value, action_ts: `${Date.now() / 1000}` }],
  };
  return { body: `payload=${encodeURIComponent(JSON.stringify(payload))}`, triggerId };
}

/** A view_submission payload for the modal `opened` (a views.open call the fake recorded), with input `values`. */
export function modalSubmission(spec: {
  user: string;
  opened: RecordedCall;
  viewId: string;
  values: Record<string, Record<string, unknown>>;
  name?: string;
}): string {
  const view = spec.opened.body.view as Record<string, unknown>;
  const payload = {
    type: 'view_submission',
    team: { id: TEAM, domain: 'candor-test' },
    user: { id: spec.user, username: spec.user.toLowerCase(), name: spec.name ?? spec.user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A0CANDOR',
    token: 'x',
    trigger_id: `trig-view-${++seq}`,
    view: {
      id: spec.viewId,
      team_id: TEAM,
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      blocks: view.blocks,
      state: { values: spec.values },
      hash: `h${seq}`,
      app_id: 'A0CANDOR',
    },
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** The views.open call made for a press's trigger id. */
export function viewOpenedFor(rig: SlackRig, triggerId: string): Promise<RecordedCall> {
  return waitFor(() => rig.slack.callsTo('/api/views.open').find((c) => c.body.trigger_id === triggerId), 10_000, 'views.open');
}

/** Asks the bot in a channel thread and waits for its reply: the message as a test can press it, and the decision. */
export async function askInSlack(
  rig: SlackRig,
  text: string,
  options: { user?: string; channel?: string } = {},
): Promise<{ message: PressedMessage; call: RecordedCall; eventId: string }> {
  const ev = slackEvent({ text: `<@${BOT_USER}> ${text}`, user: options.user ?? 'U0ASKER', channel: options.channel ?? 'C0GENERAL' });
  const res = await sendSigned(rig.eventsUrl, ev.body);
  if (res.status !== 200) throw new Error(`event not acknowledged: ${res.status}`);
  const call = await waitFor(
    () => rig.slack.callsTo('/api/chat.postMessage').find((c) => c.body.channel === ev.channel && c.body.thread_ts === ev.ts),
    15_000,
    `the reply to "${text}"`,
  );
  return {
    call,
    eventId: ev.eventId,
    message: {
      channel: ev.channel,
      ts: `${ev.ts.split('.')[0]}.9${String(++seq).padStart(5, '0')}`,
      threadTs: ev.ts,
      text: String(call.body.text),
      blocks: call.body.blocks as Record<string, any>[],
    },
  };
}

/** The buttons of a message's actions block: action id → { text, value, style }. */
export function buttonsOf(blocks: readonly Record<string, any>[]): Record<string, { text: string; value: string; style?: string }> {
  const out: Record<string, { text: string; value: string; style?: string }> = {};
  for (const block of blocks)
    if (block.type === 'actions')
      for (const e of block.elements as Record<string, any>[]) out[e.action_id] = { text: e.text.text, value: e.value, style: e.style };
  return out;
}

/** Rows of a query, as plain objects. */
export async function rows<T = Record<string, unknown>>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
