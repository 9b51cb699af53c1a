import { z } from 'zod';

import type { Place } from '../chat/channel-routes.js';
import type { InboundQuestion } from '../chat/chat-message.js';

/** The parts of a Bot Framework message activity that Candor reads. */
const MessageActivity = z.object({
  id: z.string().min(1),
  type: z.literal('message'),
  text: z.string().optional(),
  from: z.object({ id: z.string().min(1), aadObjectId: z.string().optional(), role: z.string().optional() }),
  recipient: z.object({ id: z.string().min(1) }),
  conversation: z.object({ id: z.string().min(1), conversationType: z.string().optional(), tenantId: z.string().optional() }),
  channelData: z
    .object({
      tenant: z.object({ id: z.string() }).optional(),
      team: z.object({ id: z.string() }).optional(),
      channel: z.object({ id: z.string() }).optional(),
      teamsTeamId: z.string().optional(),
      teamsChannelId: z.string().optional(),
    })
    .optional(),
  entities: z.array(z.object({ type: z.string(), mentioned: z.object({ id: z.string() }).optional() })).optional(),
});

export interface TeamsQuestion {
  readonly ok: true;
  readonly inbound: InboundQuestion;
  readonly personal: boolean;
  /** The conversation, channel and team: where the mapping (CANDOR_CHANNELS) looks. */
  readonly place: Place;
  readonly mentioned: boolean;
  /**
   * The thread a follow-up is read with: a channel post's reply chain (the conversation id names its root),
   * or a personal or group chat as a whole (within a recent window).
   */
  readonly thread: { readonly ref: string; readonly inThread: boolean; readonly windowed: boolean };
}

export type TeamsInbound = TeamsQuestion | { readonly ok: false; readonly ignored: string };

/**
 * A personal-chat message, or a channel/group message that mentions the bot,
 * becomes one question; `text` is the activity's text with the bot's mention
 * already removed by the caller. Messages from the bot itself are ignored.
 */
export function teamsInbound(activity: unknown, text: string, unmentioned?: (place: Place) => boolean): TeamsInbound {
  const parsed = MessageActivity.safeParse(activity);
  if (!parsed.success) return { ok: false, ignored: 'unexpected_payload' };
  const a = parsed.data;
  if (a.from.id === a.recipient.id || a.from.role === 'bot') return { ok: false, ignored: 'self' };
  const personal = (a.conversation.conversationType ?? 'personal') === 'personal';
  const mentioned = a.entities?.some((e) => e.type === 'mention' && e.mentioned?.id === a.recipient.id) ?? false;
  const [conversation = a.conversation.id, root] = a.conversation.id.split(';messageid=');
  const data = a.channelData;
  const ids = [conversation, data?.channel?.id ?? data?.teamsChannelId, data?.team?.id ?? data?.teamsTeamId].filter(
    (id): id is string => id !== undefined,
  );
  const place: Place = { platform: 'teams', direct: personal, ids };
  // Messages without a mention reach a bot only with the resource-specific consent to read channel messages.
  if (!personal && !mentioned && !unmentioned?.(place)) return { ok: false, ignored: 'not_mentioned' };
  const tenant = a.conversation.tenantId ?? a.channelData?.tenant?.id ?? '-';
  const windowed = root === undefined;
  return {
    ok: true,
    personal,
    place,
    mentioned: mentioned || personal,
    thread: {
      ref: `${tenant}|${windowed ? `${a.conversation.id}|chat` : a.conversation.id}`,
      inThread: root !== undefined && root !== a.id,
      windowed,
    },
    inbound: {
      channel: 'teams',
      eventId: `${a.conversation.id}|${a.id}`,
      conversationRef: `${tenant}|${a.conversation.id}|${a.id}`,
      userId: `${tenant}:${a.from.aadObjectId ?? a.from.id}`,
      text,
    },
  };
}
