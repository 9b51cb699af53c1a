import type { Attributes } from '@opentelemetry/api';

import type { Ask } from '../../ask/ask-service.js';
import type { Decision } from '../../ask/decision.js';
import { hashUserId } from '../../ask/record-interaction.js';
import { normaliseQuestion } from '../../core/text/normalise-question.js';
import { CandorError } from '../../errors.js';
import type { Log } from '../../log.js';
import type { Db } from '../../store/open-store.js';
import { ATTR, SPAN } from '../../telemetry/attributes.js';
import { withSpan } from '../../telemetry/with-span.js';
import { claimInteraction, closeInteraction, completeInteraction } from './interaction-claims.js';

/** One question as a chat channel received it, before normalisation. */
export interface InboundQuestion {
  readonly channel: 'slack' | 'teams';
  /** The platform's id for this delivery: the same on every retry of it. */
  readonly eventId: string;
  /** Where the reply goes: workspace/team, conversation, thread. */
  readonly conversationRef: string;
  /** Raw platform user id; hashed before it is stored. */
  readonly userId: string;
  readonly text: string;
}

/** What the channel has to render: a decision, or a plain message about the input. */
export type Reply = { readonly kind: 'decision'; readonly decision: Decision } | { readonly kind: 'problem'; readonly message: string };

export interface AnswerOnceDeps {
  readonly db: Db;
  readonly ask: Ask;
  readonly log: Log;
  readonly maxQuestionChars: number;
  readonly userHashSalt: string;
  readonly kb?: string | undefined;
  readonly now?: () => number;
}

/** The answer-once dependencies a chat channel takes from the app. */
export function chatDeps(host: {
  store: { db: Db };
  ask: Ask;
  log: Log;
  config: { ask: { maxQuestionChars: number }; telemetry: { userHashSalt: string }; kb: { defaultName: string } };
}): AnswerOnceDeps {
  return {
    db: host.store.db,
    ask: host.ask,
    log: host.log,
    maxQuestionChars: host.config.ask.maxQuestionChars,
    userHashSalt: host.config.telemetry.userHashSalt,
    kb: host.config.kb.defaultName,
  };
}

export interface AnswerHooks {
  /** Extra attributes for the root span (retry number, conversation type). */
  readonly attributes?: Attributes;
  /** Runs once the event is claimed; the returned function runs after delivery (a "working…" indicator). */
  readonly working?: () => () => Promise<void>;
  /** Posts the reply; errors are logged, never rethrown. */
  readonly deliver: (reply: Reply) => Promise<void>;
}

/** `unrecorded`: the database could not be reached; the person was told, nothing was asked. */
export type AnswerOutcome = 'answered' | 'duplicate' | 'unrecorded';

const NO_KB = "I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.";
const UNAVAILABLE = "I can't answer that right now because part of the system is unavailable. Please try again later.";

/**
 * The chat-channel ask path: claim the event in the database, ask, deliver,
 * complete the row. A redelivered event (Slack retries, Bot Framework
 * redeliveries, another replica) finds its claim and produces nothing.
 * The root span `candor.<channel>.message` carries `candor.channel`; the ask
 * and the delivery are its children, so the interaction's trace id is this trace.
 */
export function answerOnce(deps: AnswerOnceDeps, inbound: InboundQuestion, hooks: AnswerHooks): Promise<AnswerOutcome> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const attributes = { [ATTR.channel]: inbound.channel, [EVENT_ATTR.eventId]: inbound.eventId, ...hooks.attributes };
  return withSpan(`candor.${inbound.channel}.message`, attributes, async (span) => {
    const traceId = span.spanContext().traceId;
    const cleaned = normaliseQuestion(inbound.text, deps.maxQuestionChars);
    let claimId: number | null;
    try {
      claimId = await withSpan(CLAIM_SPAN, {}, () =>
        claimInteraction(deps.db, {
          channel: inbound.channel,
          eventId: inbound.eventId,
          conversationRef: inbound.conversationRef,
          userHash: hashUserId(inbound.userId, deps.userHashSalt),
          question: cleaned.ok ? cleaned.text : '',
        }),
      );
    } catch (error) {
      // Fail closed: without the database there is no answer, but the person still hears why.
      deps.log('error', 'could not claim event', { channel: inbound.channel, eventId: inbound.eventId, error: (error as Error).message });
      await withSpan(DELIVER_SPAN, {}, () => hooks.deliver({ kind: 'problem', message: UNAVAILABLE })).catch(() => undefined);
      return 'unrecorded';
    }
    if (claimId === null) {
      span.setAttribute(EVENT_ATTR.duplicate, true);
      deps.log('info', 'duplicate delivery ignored', { channel: inbound.channel, eventId: inbound.eventId });
      return 'duplicate';
    }
    span.setAttribute(EVENT_ATTR.duplicate, false);
    const done = hooks.working?.();
    try {
      const { reply, failed } = await decide(deps, inbound, cleaned.ok ? null : cleaned.message);
      const latencyMs = Math.round((now() - started) * 1000) / 1000;
      const [recorded, delivered] = await Promise.allSettled([
        withSpan(SPAN.record, {}, () =>
          reply.kind === 'decision'
            ? completeInteraction(deps.db, claimId, reply.decision)
            : closeInteraction(deps.db, claimId, { status: failed ? 'failed' : 'rejected', reply: reply.message, traceId, latencyMs }),
        ),
        withSpan(DELIVER_SPAN, {}, () => hooks.deliver(reply)),
      ]);
      if (recorded.status === 'rejected') {
        deps.log('error', 'could not complete interaction', {
          channel: inbound.channel,
          traceId,
          error: (recorded.reason as Error).message,
        });
      }
      if (delivered.status === 'rejected') {
        deps.log('error', 'could not deliver reply', { channel: inbound.channel, traceId, error: (delivered.reason as Error).message });
      }
      return 'answered';
    } finally {
      await done?.().catch(() => undefined);
    }
  });
}

async function decide(deps: AnswerOnceDeps, inbound: InboundQuestion, problem: string | null): Promise<{ reply: Reply; failed: boolean }> {
  if (problem !== null) return { reply: { kind: 'problem', message: problem }, failed: false };
  try {
    // The shared recorder is off: this channel has already claimed the row and completes it itself.
    const decision = await deps.ask(
      {
        question: inbound.text,
        kb: deps.kb,
        channel: inbound.channel,
        eventId: inbound.eventId,
        userId: inbound.userId,
        conversationRef: inbound.conversationRef,
      },
      { record: false },
    );
    return { reply: { kind: 'decision', decision }, failed: false };
  } catch (error) {
    if (error instanceof CandorError && error.code === 'kb_not_found') {
      deps.log('warn', 'ask refused: knowledge base missing', { channel: inbound.channel, error: error.message });
      return { reply: { kind: 'problem', message: NO_KB }, failed: true };
    }
    if (error instanceof CandorError && error.status < 500) return { reply: { kind: 'problem', message: error.message }, failed: false };
    deps.log('error', 'ask failed', { channel: inbound.channel, error: (error as Error).message });
    return { reply: { kind: 'problem', message: UNAVAILABLE }, failed: true };
  }
}

const CLAIM_SPAN = 'candor.claim';
const DELIVER_SPAN = 'candor.deliver';

/** Attributes of the root span of a chat message (kept here: telemetry/attributes.ts is shared). */
export const EVENT_ATTR = {
  eventId: 'candor.event.id',
  duplicate: 'candor.event.duplicate',
  retryNum: 'candor.event.retry_num',
} as const;
