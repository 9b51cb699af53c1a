import type { webApi } from '@slack/bolt';
import { z } from 'zod';

import type { Log } from '../../kernel/log.js';
import { describeSlackError } from './working-reaction.js';

const User = z.object({ id: z.string().min(1), name: z.string().optional(), username: z.string().optional() });

const BlockActionBody = z.object({
  trigger_id: z.string().min(1),
  user: User,
  channel: z.object({ id: z.string() }).optional(),
  container: z
    .object({ channel_id: z.string().optional(), message_ts: z.string().optional(), thread_ts: z.string().optional() })
    .optional(),
  message: z
    .object({
      ts: z.string(),
      text: z.string().optional(),
      thread_ts: z.string().optional(),
      blocks: z.array(z.unknown()).optional(),
    })
    .optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional(), action_ts: z.string().optional() })).min(1),
});

/** A button press on a message, as the handlers read it. */
export interface ButtonPress {
  readonly triggerId: string;
  readonly user: string;
  /** The user's name as people read it (the id when Slack sent none). */
  readonly name: string;
  readonly channel: string;
  /** The message the button is on. */
  readonly message: { readonly ts: string; readonly text: string; readonly threadTs: string | null; readonly blocks: readonly unknown[] };
  readonly value: string | undefined;
}

/** A block_actions payload from a button on a message; null for anything else (a button in a modal, a malformed body). */
export function readButtonPress(body: unknown): ButtonPress | null {
  const parsed = BlockActionBody.safeParse(body);
  if (!parsed.success) return null;
  const b = parsed.data;
  const channel = b.channel?.id ?? b.container?.channel_id;
  const ts = b.message?.ts ?? b.container?.message_ts;
  if (!channel || !ts) return null;
  return {
    triggerId: b.trigger_id,
    user: b.user.id,
    name: displayName(b.user),
    channel,
    message: {
      ts,
      text: b.message?.text ?? '',
      threadTs: b.message?.thread_ts ?? b.container?.thread_ts ?? null,
      blocks: b.message?.blocks ?? [],
    },
    value: b.actions[0]?.value,
  };
}

const ViewSubmissionBody = z.object({
  user: User,
  view: z.object({
    id: z.string().min(1),
    private_metadata: z.string().optional(),
    state: z.object({ values: z.record(z.string(), z.record(z.string(), z.unknown())) }),
  }),
});

/** A modal's submission: who sent it, the modal's id, its private metadata (parsed JSON) and its input values. */
export interface ModalSubmission {
  readonly viewId: string;
  readonly user: string;
  readonly name: string;
  readonly metadata: unknown;
  /** An input's value: `values[blockId][actionId]` as Slack sends it (`{ value }`, `{ selected_option }`, …). */
  input(blockId: string, actionId: string): { value?: unknown; selected_option?: { value?: unknown } | null } | undefined;
}

export function readModalSubmission(body: unknown): ModalSubmission | null {
  const parsed = ViewSubmissionBody.safeParse(body);
  if (!parsed.success) return null;
  const { user, view } = parsed.data;
  let metadata: unknown = null;
  try {
    metadata = view.private_metadata ? JSON.parse(view.private_metadata) : null;
  } catch {
    metadata = null;
  }
  return {
    viewId: view.id,
    user: user.id,
    name: displayName(user),
    metadata,
    input: (blockId, actionId) => view.state.values[blockId]?.[actionId] as ReturnType<ModalSubmission['input']>,
  };
}

function displayName(user: z.infer<typeof User>): string {
  return user.name?.trim() || user.username?.trim() || user.id;
}

/** Sends `user` a note only they see, in the thread when given; a failure is logged, never thrown. */
export function ephemeralNotes(client: webApi.WebClient, log: Log) {
  return async (to: { channel: string; user: string; threadTs?: string | null }, text: string): Promise<void> => {
    await client.chat
      .postEphemeral({ channel: to.channel, user: to.user, text, ...(to.threadTs ? { thread_ts: to.threadTs } : {}) })
      .catch((error: unknown) => log('warn', 'slack: could not send an ephemeral note', { code: describeSlackError(error) }));
  };
}
