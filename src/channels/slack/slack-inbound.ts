import { z } from 'zod';

import type { Place } from '../chat/channel-routes.js';
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
  /** The channel and team: where the mapping (CANDOR_CHANNELS) looks. */
  readonly place: Place;
  /** The asker's Slack user id (raw: for group lookups and ephemeral replies; the inbox keeps it hashed or sealed). */
  readonly user: string;
  /** The message mentions the bot (an app_mention); false for a channel message read without one. */
  readonly mentioned: boolean;
  /**
   * The thread whose earlier question a follow-up is read with: the thread's root in a channel or a DM thread;
   * for a top-level direct message, the DM itself (within a recent window).
   */
  readonly thread: { readonly ref: string; readonly inThread: boolean };
  /** Where the reply is posted; `threadTs` is undefined for a top-level DM reply. */
  readonly reply: { readonly channel: string; readonly threadTs: string | undefined };
  /** The question message itself (for the working reaction). */
  readonly message: { readonly channel: string; readonly ts: string };
  readonly direct: boolean;
}

/** What the receiver knows of the install: the bot's own id, and which channels take questions without a mention. */
export interface SlackInboundRules {
  readonly botUserId: string | undefined;
  /** Whether a channel message without a mention may be a question there (see answersUnmentioned). */
  readonly unmentioned?: (place: Place) => boolean;
}

export type SlackInbound = { readonly ok: true; readonly question: SlackQuestion } | { readonly ok: false; readonly ignored: string };

/**
 * Turns an `app_mention` (in a channel), a `message` in a DM, or a channel
 * `message` without a mention where the mapping answers those, into one
 * question; everything else is ignored with a reason: bots, the bot itself,
 * edits, other subtypes, channel messages elsewhere. A channel message that
 * mentions the bot is left to its `app_mention` (Slack sends both).
 */
export function slackInbound(body: unknown, rules: SlackInboundRules): SlackInbound {
  const { botUserId } = rules;
  const parsed = Envelope.safeParse(body);
  if (!parsed.success) return { ok: false, ignored: 'unexpected_payload' };
  const { event, event_id: eventId } = parsed.data;
  if (event.subtype !== undefined && !QUESTION_SUBTYPES.has(event.subtype)) return { ok: false, ignored: `subtype:${event.subtype}` };
  if (event.bot_id !== undefined) return { ok: false, ignored: 'bot' };
  if (event.user === undefined) return { ok: false, ignored: 'no_user' };
  if (botUserId !== undefined && event.user === botUserId) return { ok: false, ignored: 'self' };
  if (event.edited !== undefined) return { ok: false, ignored: 'edited' };
  const team = parsed.data.team_id ?? event.team ?? 'unknown';
  const direct = event.type === 'message' && event.channel_type === 'im';
  const place: Place = { platform: 'slack', direct, ids: [event.channel, team] };
  const mentioned = event.type === 'app_mention';
  if (event.type === 'message' && !direct) {
    if (!['channel', 'group', 'mpim'].includes(event.channel_type ?? '')) return { ok: false, ignored: 'not_direct' };
    if (botUserId !== undefined && (event.text ?? '').includes(`<@${botUserId}>`)) return { ok: false, ignored: 'mention_event' };
    if (!rules.unmentioned?.(place)) return { ok: false, ignored: 'not_mentioned' };
  }
  // In channels the answer goes into the question's thread; in a DM, beside the question unless it was asked in a thread.
  const threadTs = event.thread_ts ?? (direct ? undefined : event.ts);
  const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts;
  const conversationRef = `${team}:${event.channel}:${event.thread_ts ?? event.ts}`;
  return {
    ok: true,
    question: {
      inbound: { channel: 'slack', eventId, conversationRef, userId: `${team}:${event.user}`, text: event.text ?? '' },
      place,
      user: event.user,
      mentioned,
      thread: { ref: direct && !inThread ? `${team}:${event.channel}:dm` : conversationRef, inThread },
      reply: { channel: event.channel, threadTs },
      message: { channel: event.channel, ts: event.ts },
      direct,
    },
  };
}
