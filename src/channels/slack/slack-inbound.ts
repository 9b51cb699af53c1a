import { z } from 'zod';

import type { InboundQuestion } from '../chat/chat-message.js';

/** The parts of an Events API envelope and message/app_mention event that Candor reads. */
const Envelope = z.object({
  event_id: z.string().min(1),
  team_id: z.string().optional(),
  event: z.object({
    type: z.enum(['app_mention', 'message']),
    subtype: z.string().optional(),
    user: z.string().optional(),
    bot_id: z.string().optional(),
    text: z.string().optional(),
    ts: z.string(),
    thread_ts: z.string().optional(),
    channel: z.string(),
    channel_type: z.string().optional(),
    team: z.string().optional(),
    edited: z.unknown().optional(),
  }),
});

/** Message subtypes that still carry a person's question. */
const QUESTION_SUBTYPES = new Set(['file_share', 'thread_broadcast']);

export interface SlackQuestion {
  readonly inbound: InboundQuestion;
  /** Where the reply is posted; `threadTs` is undefined for a top-level DM reply. */
  readonly reply: { readonly channel: string; readonly threadTs: string | undefined };
  /** The question message itself (for the working reaction). */
  readonly message: { readonly channel: string; readonly ts: string };
  readonly direct: boolean;
}

export type SlackInbound = { readonly ok: true; readonly question: SlackQuestion } | { readonly ok: false; readonly ignored: string };

/**
 * Turns an `app_mention` (in a channel) or a `message` in a DM into one
 * question; everything else is ignored with a reason: bots, the bot itself,
 * edits, other subtypes, non-DM messages.
 */
export function slackInbound(body: unknown, botUserId: string | undefined): SlackInbound {
  const parsed = Envelope.safeParse(body);
  if (!parsed.success) return { ok: false, ignored: 'unexpected_payload' };
  const { event, event_id: eventId } = parsed.data;
  if (event.subtype !== undefined && !QUESTION_SUBTYPES.has(event.subtype)) return { ok: false, ignored: `subtype:${event.subtype}` };
  if (event.bot_id !== undefined) return { ok: false, ignored: 'bot' };
  if (event.user === undefined) return { ok: false, ignored: 'no_user' };
  if (botUserId !== undefined && event.user === botUserId) return { ok: false, ignored: 'self' };
  if (event.edited !== undefined) return { ok: false, ignored: 'edited' };
  const direct = event.type === 'message';
  if (direct && event.channel_type !== 'im') return { ok: false, ignored: 'not_direct' };
  const team = parsed.data.team_id ?? event.team ?? 'unknown';
  // In channels the answer goes into the question's thread; in a DM, beside the question unless it was asked in a thread.
  const threadTs = event.thread_ts ?? (direct ? undefined : event.ts);
  return {
    ok: true,
    question: {
      inbound: {
        channel: 'slack',
        eventId,
        conversationRef: `${team}:${event.channel}:${event.thread_ts ?? event.ts}`,
        userId: `${team}:${event.user}`,
        text: event.text ?? '',
      },
      reply: { channel: event.channel, threadTs },
      message: { channel: event.channel, ts: event.ts },
      direct,
    },
  };
}
