import { z } from 'zod';

import { hashUserId } from '../../ask/record-interaction.js';
import type { ClaimedEntry } from '../../inbox/inbox-store.js';
import { traceCarrier } from '../../telemetry/trace-carrier.js';
import type { QueuedQuestion } from '../chat/chat-message.js';
import type { SlackQuestion } from './slack-inbound.js';

/** What the inbox keeps of a Slack question: the question (user id hashed) and where to reply. */
const Payload = z.object({
  conversationRef: z.string(),
  userHash: z.string().nullable(),
  text: z.string(),
  reply: z.object({ channel: z.string(), threadTs: z.string().optional() }),
  message: z.object({ channel: z.string(), ts: z.string() }),
  direct: z.boolean(),
  retryNum: z.number().int(),
  /** The receiving request's trace context: answering continues that trace. */
  trace: z.record(z.string(), z.string()).optional(),
});

export function slackPayload(q: SlackQuestion, salt: string, retryNum: number): Record<string, unknown> {
  return {
    conversationRef: q.inbound.conversationRef,
    userHash: hashUserId(q.inbound.userId, salt),
    text: q.inbound.text,
    reply: { channel: q.reply.channel, ...(q.reply.threadTs ? { threadTs: q.reply.threadTs } : {}) },
    message: q.message,
    direct: q.direct,
    retryNum,
    trace: traceCarrier(),
  } satisfies z.input<typeof Payload>;
}

export interface SlackEntry {
  readonly question: QueuedQuestion;
  readonly reply: { readonly channel: string; readonly threadTs: string | undefined };
  readonly message: { readonly channel: string; readonly ts: string };
  readonly direct: boolean;
  readonly retryNum: number;
  readonly trace: Readonly<Record<string, string>> | undefined;
}

/** Reads a stored Slack question back (checked: a row written by another version must not be half-read). */
export function slackEntry(entry: ClaimedEntry): SlackEntry {
  const p = Payload.parse(entry.payload);
  return {
    question: { channel: 'slack', eventId: entry.eventId, conversationRef: p.conversationRef, userHash: p.userHash, text: p.text },
    reply: { channel: p.reply.channel, threadTs: p.reply.threadTs },
    message: p.message,
    direct: p.direct,
    retryNum: p.retryNum,
    trace: p.trace,
  };
}
