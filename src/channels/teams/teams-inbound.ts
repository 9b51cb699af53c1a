import { z } from 'zod';

import type { InboundQuestion } from '../chat/chat-message.js';

/** The parts of a Bot Framework message activity that Candor reads. */
const MessageActivity = z.object({
  id: z.string().min(1),
  type: z.literal('message'),
  text: z.string().optional(),
  from: z.object({ id: z.string().min(1), aadObjectId: z.string().optional(), role: z.string().optional() }),
  recipient: z.object({ id: z.string().min(1) }),
  conversation: z.object({ id: z.string().min(1), conversationType: z.string().optional(), tenantId: z.string().optional() }),
  channelData: z.object({ tenant: z.object({ id: z.string() }).optional() }).optional(),
  entities: z.array(z.object({ type: z.string(), mentioned: z.object({ id: z.string() }).optional() })).optional(),
});

export type TeamsInbound =
  { readonly ok: true; readonly inbound: InboundQuestion; readonly personal: boolean } | { readonly ok: false; readonly ignored: string };

/**
 * A personal-chat message, or a channel/group message that mentions the bot,
 * becomes one question; `text` is the activity's text with the bot's mention
 * already removed by the caller. Messages from the bot itself are ignored.
 */
export function teamsInbound(activity: unknown, text: string): TeamsInbound {
  const parsed = MessageActivity.safeParse(activity);
  if (!parsed.success) return { ok: false, ignored: 'unexpected_payload' };
  const a = parsed.data;
  if (a.from.id === a.recipient.id || a.from.role === 'bot') return { ok: false, ignored: 'self' };
  const personal = (a.conversation.conversationType ?? 'personal') === 'personal';
  const mentioned = a.entities?.some((e) => e.type === 'mention' && e.mentioned?.id === a.recipient.id) ?? false;
  if (!personal && !mentioned) return { ok: false, ignored: 'not_mentioned' };
  const tenant = a.conversation.tenantId ?? a.channelData?.tenant?.id ?? '-';
  return {
    ok: true,
    personal,
    inbound: {
      channel: 'teams',
      eventId: `${a.conversation.id}|${a.id}`,
      conversationRef: `${tenant}|${a.conversation.id}|${a.id}`,
      userId: `${tenant}:${a.from.aadObjectId ?? a.from.id}`,
      text,
    },
  };
}
