import { TurnContext, type Activity, type ConversationReference } from 'botbuilder';
import { z } from 'zod';

import { hashUserId } from '../../ask/record-interaction.js';
import type { ClaimedEntry } from '../../inbox/inbox-store.js';
import { traceCarrier } from '../../telemetry/trace-carrier.js';
import { DIRECT_FOLLOW_UP_MS, type QueuedQuestion } from '../chat/chat-message.js';
import { QUEUED_FIELDS, queuedQuestion } from '../chat/queued-fields.js';
import type { TeamsQuestion } from './teams-inbound.js';

/** What the inbox keeps of a Teams question: the question (user id hashed) and the conversation to reply in. */
const Payload = z.object({
  ...QUEUED_FIELDS,
  personal: z.boolean(),
  /**
   * The conversation reference: where to reply. Of the user it keeps the conversation member id Teams
   * addresses the reply to ("29:…"), not the name or the directory (AAD) id.
   */
  reference: z.record(z.string(), z.unknown()),
  replyToId: z.string(),
  /** `personal`: the reply goes to the asker's personal chat with the bot (the "ask" command in a channel). */
  delivery: z.enum(['reply', 'personal']).optional(),
});

export function teamsPayload(
  q: TeamsQuestion,
  context: TurnContext,
  salt: string,
  route?: { readonly kbs: readonly string[]; readonly privately?: boolean },
): Record<string, unknown> {
  return {
    ...(route ? { kbs: [...route.kbs] } : {}),
    thread: {
      ref: q.thread.ref,
      requireEarlier: !q.mentioned && q.thread.inThread,
      ...(q.thread.windowed ? { withinMs: DIRECT_FOLLOW_UP_MS } : {}),
    },
    ...(route?.privately ? { delivery: 'personal' as const } : {}),
    conversationRef: q.inbound.conversationRef,
    userHash: hashUserId(q.inbound.userId, salt),
    text: q.inbound.text,
    personal: q.personal,
    reference: storedReference(context.activity),
    replyToId: context.activity.id ?? '',
    trace: traceCarrier(),
  } satisfies z.input<typeof Payload>;
}

/**
 * The conversation reference of an activity as Candor stores it (plain JSON): of the user only the
 * conversation member id Teams addresses a reply to ("29:…"), not the name or the directory (AAD) id.
 */
export function storedReference(activity: Partial<Activity>): Record<string, unknown> {
  const { user, ...rest } = TurnContext.getConversationReference(activity);
  const reference = { ...rest, ...(user?.id ? { user: { id: user.id } } : {}) };
  return JSON.parse(JSON.stringify(reference)) as Record<string, unknown>;
}

export interface TeamsEntry {
  readonly question: QueuedQuestion;
  /** The reply goes to the asker's personal chat, not the conversation asked in. */
  readonly privately: boolean;
  readonly personal: boolean;
  readonly reference: Partial<ConversationReference>;
  readonly replyToId: string;
  readonly trace: Readonly<Record<string, string>> | undefined;
}

/** Reads a stored Teams question back (checked: a row written by another version must not be half-read). */
export function teamsEntry(entry: ClaimedEntry): TeamsEntry {
  const p = Payload.parse(entry.payload);
  return {
    question: queuedQuestion('teams', entry, p),
    privately: p.delivery === 'personal',
    personal: p.personal,
    reference: p.reference as Partial<ConversationReference>,
    replyToId: p.replyToId,
    trace: p.trace,
  };
}
