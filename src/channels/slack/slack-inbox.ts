import { z } from 'zod';

import { hashUserId } from '../../ask/record-interaction.js';
import type { ClaimedEntry } from '../../inbox/inbox-store.js';
import { traceCarrier } from '../../telemetry/trace-carrier.js';
import { DIRECT_FOLLOW_UP_MS, type QueuedQuestion } from '../chat/chat-message.js';
import { QUEUED_FIELDS, queuedQuestion } from '../chat/queued-fields.js';
import { sealUserId } from '../chat/sealed-user.js';
import type { SlackQuestion } from './slack-inbound.js';

/** What the inbox keeps of a Slack question: the question (user id hashed) and where to reply. */
const Payload = z.object({
  ...QUEUED_FIELDS,
  reply: z.object({ channel: z.string(), threadTs: z.string().optional() }),
  message: z.object({ channel: z.string(), ts: z.string() }),
  direct: z.boolean(),
  retryNum: z.number().int(),
  /** How the reply goes: in the thread (absent), only to the asker (user id sealed), or to a slash command's response URL. */
  delivery: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('ephemeral'), user: z.string() }),
      z.object({ kind: z.literal('response_url'), url: z.string() }),
    ])
    .optional(),
});

/** Where and how the reply to a stored question goes. */
export type SlackDelivery = NonNullable<z.infer<typeof Payload>['delivery']> | { readonly kind: 'thread' };

/** What the mapping decided for a question when it arrived. */
export interface SlackRouting {
  readonly kbs: readonly string[];
  readonly reply: 'thread' | 'ephemeral';
  /** The channel answers messages without a mention (else this message mentioned the bot). */
  readonly mentionOnly: boolean;
}

export function slackPayload(q: SlackQuestion, salt: string, retryNum: number, route?: SlackRouting): Record<string, unknown> {
  return {
    ...(route ? { kbs: [...route.kbs] } : {}),
    thread: {
      ref: q.thread.ref,
      requireEarlier: !q.mentioned && !q.direct && q.thread.inThread,
      ...(q.direct && !q.thread.inThread ? { withinMs: DIRECT_FOLLOW_UP_MS } : {}),
    },
    ...(route?.reply === 'ephemeral' ? { delivery: { kind: 'ephemeral' as const, user: sealUserId(q.user, salt) } } : {}),
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

/**
 * `/candor ask QUESTION`: the question as the inbox keeps it, answered like any other and delivered to the
 * command's response URL (only the asker sees it). The trigger id names the event: Slack sends each once.
 */
export function commandPayload(
  command: {
    readonly text: string;
    readonly teamId: string;
    readonly channelId: string;
    readonly userId: string;
    readonly responseUrl: string;
  },
  salt: string,
  kbs: readonly string[],
): Record<string, unknown> {
  return {
    conversationRef: `${command.teamId}:${command.channelId}:command`,
    userHash: hashUserId(`${command.teamId}:${command.userId}`, salt),
    text: command.text,
    reply: { channel: command.channelId },
    message: { channel: command.channelId, ts: '' },
    direct: false,
    retryNum: 0,
    trace: traceCarrier(),
    kbs: [...kbs],
    delivery: { kind: 'response_url', url: command.responseUrl },
  } satisfies z.input<typeof Payload>;
}

export interface SlackEntry {
  readonly question: QueuedQuestion;
  readonly delivery: SlackDelivery;
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
    question: queuedQuestion('slack', entry, p),
    delivery: p.delivery ?? { kind: 'thread' },
    reply: { channel: p.reply.channel, threadTs: p.reply.threadTs },
    message: p.message,
    direct: p.direct,
    retryNum: p.retryNum,
    trace: p.trace,
  };
}
