import type { Attributes } from '@opentelemetry/api';

import type { Ask } from '../../ask/ask-service.js';
import type { InteractionClaims } from '../../ask/interaction-claims.js';
import type { Understood } from '../../ask/record-interaction.js';
import { normaliseQuestion } from '../../core/text/normalise-question.js';
import { CandorError, describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { ATTR, SPAN } from '../../telemetry/attributes.js';
import { withSpan } from '../../telemetry/with-span.js';
import type { FollowUp, QueuedQuestion, Reply } from './chat-message.js';

export interface AnswerOnceDeps {
  readonly claims: InteractionClaims;
  readonly ask: Ask;
  readonly log: Log;
  readonly maxQuestionChars: number;
  readonly userHashSalt: string;
  readonly kb?: string | undefined;
  /** Makes a thread's follow-up a standalone question; absent: follow-ups are judged as typed. */
  readonly followUp?: FollowUp | undefined;
  readonly now?: () => number;
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

const NO_KB = "I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.";
const UNAVAILABLE = "I can't answer that right now because part of the system is unavailable. Please try again later.";

/**
 * The chat-channel answer path, for one question taken from the inbox: claim
 * its interaction row (or find the one an earlier, interrupted try claimed),
 * ask, record the decision, deliver. Run again after a crash it answers into
 * the same row, so an event is one interaction whatever happened. The root span
 * `candor.<channel>.message` carries `candor.channel`; the ask and the delivery
 * are its children, so the interaction's trace id is this trace.
 */
export function answerQueued(deps: AnswerOnceDeps, question: QueuedQuestion, hooks: AnswerHooks): Promise<string | null> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  // A redelivered event stops at the inbox's door; what reaches this path is the first delivery (or its retry after a crash).
  const attributes = {
    [ATTR.channel]: question.channel,
    [EVENT_ATTR.eventId]: question.eventId,
    [EVENT_ATTR.duplicate]: false,
    ...hooks.attributes,
  };
  return withSpan(SPAN.chatMessage(question.channel), attributes, async (span) => {
    const traceId = span.spanContext().traceId;
    const cleaned = normaliseQuestion(question.text, deps.maxQuestionChars);
    const thread = question.thread;
    const earlier = thread
      ? await deps.claims.earlier({
          channel: question.channel,
          threadRef: thread.ref,
          eventId: question.eventId,
          withinMs: thread.withinMs,
        })
      : null;
    if (thread?.requireEarlier && earlier === null) {
      // A message without a mention in a thread the bot never replied in: conversation between people, not a question.
      span.setAttribute(ATTR.followUp, 'not_a_question');
      return null;
    }
    const claimId = await withSpan(SPAN.claim, {}, async () => {
      const fresh = await deps.claims.claim({
        channel: question.channel,
        eventId: question.eventId,
        conversationRef: question.conversationRef,
        userHash: question.userHash,
        question: cleaned.ok ? cleaned.text : '',
        threadRef: thread?.ref,
      });
      return fresh ?? (await deps.claims.find(question.channel, question.eventId));
    });
    if (claimId === null) throw new Error(`the interaction row of event ${question.eventId} is neither new nor there`);
    const done = hooks.working?.();
    try {
      const understood = cleaned.ok && earlier !== null ? await readFollowUp(deps, question, earlier, cleaned.text) : undefined;
      span.setAttribute(ATTR.followUp, earlier === null ? 'none' : (understood?.by ?? 'as_asked'));
      const asked = understood ? { ...question, text: understood.question } : question;
      const decided = await decide(deps, asked, cleaned.ok ? null : cleaned.message);
      const { failed } = decided;
      // The reply names its stored row: feedback and "Ask an expert" buttons act on it.
      const reply: Reply =
        decided.reply.kind === 'decision'
          ? {
              kind: 'decision',
              decision: { ...decided.reply.decision, interactionId: claimId, ...(understood ? { understoodAs: understood.question } : {}) },
            }
          : decided.reply;
      const latencyMs = Math.round((now() - started) * 1000) / 1000;
      // Recorded before it is delivered: a reply the person sees is always a stored interaction.
      await withSpan(SPAN.record, {}, () =>
        reply.kind === 'decision'
          ? deps.claims.complete(claimId, reply.decision, understood)
          : deps.claims.close(claimId, { status: failed ? 'failed' : 'rejected', reply: reply.message, traceId, latencyMs }),
      );
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

/**
 * The follow-up as a standalone question, or undefined when it is judged as typed (it stands alone, or the
 * rewrite failed: fail closed). The rewrite never stops the answer.
 */
async function readFollowUp(
  deps: AnswerOnceDeps,
  question: QueuedQuestion,
  previous: string,
  typed: string,
): Promise<Understood | undefined> {
  if (!deps.followUp) return undefined;
  try {
    const made = await withSpan(SPAN.followUp, {}, () =>
      (deps.followUp as FollowUp)({ previous, followUp: typed, kbs: question.kbs ?? (deps.kb ? [deps.kb] : []) }),
    );
    const standalone = normaliseQuestion(made.question, deps.maxQuestionChars);
    if (made.method === 'as_asked' || !standalone.ok || standalone.text === typed) return undefined;
    return { question: standalone.text, typed, by: made.method };
  } catch (error) {
    deps.log('warn', 'follow-up could not be read with its thread; judged as typed', { error: describeError(error) });
    return undefined;
  }
}

async function decide(deps: AnswerOnceDeps, question: QueuedQuestion, problem: string | null): Promise<{ reply: Reply; failed: boolean }> {
  if (problem !== null) return { reply: { kind: 'problem', message: problem }, failed: false };
  try {
    // The shared recorder is off: this channel has already claimed the row and completes it itself.
    const decision = await deps.ask(
      {
        question: question.text,
        kb: deps.kb,
        kbs: question.kbs,
        channel: question.channel,
        eventId: question.eventId,
        conversationRef: question.conversationRef,
      },
      { record: false },
    );
    return { reply: { kind: 'decision', decision }, failed: false };
  } catch (error) {
    // Worth another try (a KB still loading): the inbox tries the question again shortly (the last try says "can't answer now").
    if (error instanceof CandorError && error.retryable) throw error;
    if (error instanceof CandorError && error.code === 'kb_not_found') {
      deps.log('warn', 'ask refused: knowledge base missing', { channel: question.channel, error: error.message });
      return { reply: { kind: 'problem', message: NO_KB }, failed: true };
    }
    if (error instanceof CandorError && error.status < 500) return { reply: { kind: 'problem', message: error.message }, failed: false };
    deps.log('error', 'ask failed', { channel: question.channel, error: describeError(error) });
    return { reply: { kind: 'problem', message: UNAVAILABLE }, failed: true };
  }
}

/** Attributes of the root span of a chat message. */
export const EVENT_ATTR = {
  eventId: ATTR.eventId,
  duplicate: ATTR.eventDuplicate,
  retryNum: ATTR.eventRetryNum,
  attempt: ATTR.inboxAttempt,
} as const;
