import type { Attributes } from '@opentelemetry/api';

import { UNAVAILABLE, type ChatAsk } from '../../ask/chat-ask.js';
import { ATTR, SPAN } from '../../telemetry/attributes.js';
import { withSpan } from '../../telemetry/with-span.js';
import type { QueuedQuestion, Reply } from './chat-message.js';

export interface AnswerOnceDeps {
  /** The ask path of a chat event: it claims, asks and writes the event's interaction row. */
  readonly ask: ChatAsk;
  readonly userHashSalt: string;
}

export interface AnswerHooks {
  /** Extra attributes for the root span (retry number, conversation type). */
  readonly attributes?: Attributes;
  /** Runs once the question is claimed; the returned function runs after delivery (a "working…" indicator). */
  readonly working?: () => () => Promise<void>;
  /**
   * Posts the reply and returns its id (null when the channel refused it for good: the bot is not in the
   * channel, say). Throws when it may work later (a network error, a 5xx): the inbox tries again.
   */
  readonly deliver: (reply: Reply) => Promise<string | null>;
}

/**
 * The chat-channel answer path, for one question taken from the inbox: the ask path claims, asks and records
 * (see createChatAsk), then the reply is delivered. The root span `candor.<channel>.message` carries
 * `candor.channel`; the claim, the ask, the record and the delivery are its children, so the interaction's
 * trace id is this trace.
 */
export function answerQueued(deps: AnswerOnceDeps, question: QueuedQuestion, hooks: AnswerHooks): Promise<string | null> {
  // A redelivered event stops at the inbox's door; what reaches this path is the first delivery (or its retry after a crash).
  const attributes = {
    [ATTR.channel]: question.channel,
    [EVENT_ATTR.eventId]: question.eventId,
    [EVENT_ATTR.duplicate]: false,
    ...hooks.attributes,
  };
  return withSpan(SPAN.chatMessage(question.channel), attributes, async (span) => {
    let done: (() => Promise<void>) | undefined;
    try {
      const asked = await deps.ask(question, {
        claimed: () => {
          done = hooks.working?.();
        },
      });
      span.setAttribute(ATTR.followUp, asked.followUp);
      if (asked.reply === null) return null;
      const { reply } = asked;
      return await withSpan(SPAN.deliver, {}, () => hooks.deliver(reply));
    } finally {
      await done?.().catch(() => undefined);
    }
  });
}

/**
 * answerQueued, and on the inbox's last try for a question that keeps failing,
 * an honest "can't answer now" to the person before the row is given up.
 */
export async function answerOrGiveUp(
  deps: AnswerOnceDeps,
  question: QueuedQuestion,
  hooks: AnswerHooks,
  final: boolean,
): Promise<string | null> {
  try {
    return await answerQueued(deps, question, hooks);
  } catch (error) {
    if (final) await hooks.deliver({ kind: 'problem', message: UNAVAILABLE }).catch(() => null);
    throw error;
  }
}

/** Attributes of the root span of a chat message. */
export const EVENT_ATTR = {
  eventId: ATTR.eventId,
  duplicate: ATTR.eventDuplicate,
  retryNum: ATTR.eventRetryNum,
  attempt: ATTR.inboxAttempt,
} as const;
