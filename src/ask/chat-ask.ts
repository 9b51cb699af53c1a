import { normaliseQuestion } from '../core/text/normalise-question.js';
import { CandorError, describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { SPAN } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/with-span.js';
import { createGatedAsk, type AskDeps, type Asked, type GatedAsk } from './ask-service.js';
import { round } from './decision-parts.js';
import type { Abstained, Decision } from './decision.js';
import { understandFollowUp, type FollowUp } from './follow-up.js';
import type { InteractionReads } from './interaction-reads.js';
import type { Understood } from './record-interaction.js';

/** A chat event's question as its channel's inbox keeps it: the user id already hashed, the text as typed. */
export interface ChatQuestion {
  readonly channel: string;
  readonly eventId: string;
  /** Where the reply goes: workspace/team, conversation, thread. */
  readonly conversationRef: string;
  readonly userHash: string | null;
  readonly text: string;
  /** The knowledge bases that answer where it was asked (CANDOR_CHANNELS); absent: the default. */
  readonly kbs?: readonly string[] | undefined;
  /** The thread it was asked in: a follow-up there is read with the thread's earlier question. */
  readonly thread?: ChatThread | undefined;
}

export interface ChatThread {
  readonly ref: string;
  /** A message read without a mention: a question only as a follow-up in a thread the bot replied in. */
  readonly requireEarlier: boolean;
  /** Only an earlier question this recent counts (a direct message's running conversation). */
  readonly withinMs?: number | undefined;
}

/** What the channel has to render: a decision (naming its row), or a plain message about the input. */
export type ChatReply = { readonly kind: 'decision'; readonly decision: Decision } | { readonly kind: 'problem'; readonly message: string };

/** How a question was read with its thread: not in one ('none'), as typed, or made standalone. */
export type FollowUpReading = 'none' | 'as_asked' | Understood['by'];

/** The chat ask's outcome: the stored reply, or nothing when the message is conversation between people. */
export type ChatAsked =
  { readonly reply: ChatReply; readonly followUp: FollowUpReading } | { readonly reply: null; readonly followUp: 'not_a_question' };

export interface ChatAskHooks {
  /** Runs once the event's row is claimed (the channel's "working…" indicator starts then). */
  readonly claimed?: () => void;
}

/** The ask of a chat event, the one writer of its interaction row. */
export type ChatAsk = (question: ChatQuestion, hooks?: ChatAskHooks) => Promise<ChatAsked>;

export interface ChatAskDeps extends AskDeps {
  readonly reads: InteractionReads;
  /** Makes a thread's follow-up a standalone question; absent: follow-ups are judged as typed. */
  readonly followUp?: FollowUp | undefined;
}

const NO_KB = "I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.";
/** The reply when part of the system failed (also the channel's last word on a question it gives up on). */
export const UNAVAILABLE = "I can't answer that right now because part of the system is unavailable. Please try again later.";

/**
 * The ask path of a chat event: normalise the text (once), claim the event's interaction row (or find the one an
 * earlier, interrupted try claimed), read a follow-up with its thread, ask, and write the outcome into the row
 * before it is returned — a reply the person sees is always a stored interaction. Run again after a crash it
 * answers into the same row, so an event is one interaction whatever happened. Throws when the question should
 * be tried again later (a retryable error such as a KB still loading, or the database failing); the row then
 * stays claimed for that try.
 */
export function createChatAsk(deps: ChatAskDeps): ChatAsk {
  const gated = createGatedAsk(deps);
  const now = deps.now ?? (() => performance.now());
  const maxQuestionChars = deps.config.ask.maxQuestionChars;
  return async (question, hooks = {}) => {
    const started = now();
    const cleaned = normaliseQuestion(question.text, maxQuestionChars);
    const thread = question.thread;
    const earlier = thread
      ? await deps.reads.earlier({ channel: question.channel, threadRef: thread.ref, eventId: question.eventId, withinMs: thread.withinMs })
      : null;
    // A message without a mention in a thread the bot never replied in: conversation between people, not a question.
    if (thread?.requireEarlier && earlier === null) return { reply: null, followUp: 'not_a_question' };
    const claimId = await withSpan(SPAN.claim, {}, () => claimRow(deps, question, cleaned.ok ? cleaned.text : ''));
    hooks.claimed?.();
    const kbs = question.kbs ?? [deps.config.kb.defaultName];
    const understood =
      cleaned.ok && earlier !== null
        ? await understandFollowUp({ ...deps, maxQuestionChars }, { previous: earlier, typed: cleaned.text, kbs })
        : undefined;
    const decided = cleaned.ok
      ? await decide(gated, deps.log, question, understood?.question ?? cleaned.text)
      : { reply: { kind: 'problem', message: cleaned.message } as const, failed: false };
    // The reply names its stored row: feedback and "Ask an expert" buttons act on it.
    const reply: ChatReply =
      decided.reply.kind === 'decision'
        ? {
            kind: 'decision',
            decision: { ...decided.reply.decision, interactionId: claimId, ...(understood ? { understoodAs: understood.question } : {}) },
          }
        : decided.reply;
    const latencyMs = round(now() - started);
    await withSpan(SPAN.record, {}, (span) =>
      reply.kind === 'decision'
        ? deps.recorder.complete(
            claimId,
            reply.decision.decision === 'abstain' && decided.considered
              ? { ...reply.decision, considered: decided.considered }
              : reply.decision,
            understood,
          )
        : deps.recorder.close(claimId, {
            status: decided.failed ? 'failed' : 'rejected',
            reply: reply.message,
            traceId: span.spanContext().traceId,
            latencyMs,
          }),
    );
    return { reply, followUp: earlier === null ? 'none' : (understood?.by ?? 'as_asked') };
  };
}

/** The event's row: claimed now, or the one an earlier try of it claimed. */
async function claimRow(deps: ChatAskDeps, question: ChatQuestion, normalised: string): Promise<number> {
  const fresh = await deps.recorder.claim({
    channel: question.channel,
    eventId: question.eventId,
    conversationRef: question.conversationRef,
    userHash: question.userHash,
    question: normalised,
    threadRef: question.thread?.ref,
  });
  const id = fresh ?? (await deps.reads.find(question.channel, question.eventId));
  if (id === null) throw new Error(`the interaction row of event ${question.eventId} is neither new nor there`);
  return id;
}

/** The gate's decision, or the plain message a failed ask gets (`failed`: the row is closed as failed, not rejected). */
async function decide(
  gated: GatedAsk,
  log: Log | undefined,
  question: ChatQuestion,
  asked: string,
): Promise<{ reply: ChatReply; failed: boolean; considered?: Abstained['considered'] }> {
  const { channel } = question;
  try {
    // No row is written inside the ask: the claimed one is completed after it, with what a refusal considered
    // (the reply leaves those facts out; the row keeps them, as an HTTP ask's row does).
    const request = { question: asked, kbs: question.kbs, channel, eventId: question.eventId, conversationRef: question.conversationRef };
    let considered: Abstained['considered'];
    const keep = (whole: Asked) => {
      if (whole.decision.decision === 'abstain') considered = whole.decision.considered;
      return Promise.resolve(null);
    };
    const decision = await gated(request, asked, {}, keep);
    return { reply: { kind: 'decision', decision }, failed: false, ...(considered ? { considered } : {}) };
  } catch (error) {
    // Worth another try (a KB still loading): the inbox tries the question again shortly (the last try says "can't answer now").
    if (error instanceof CandorError && error.retryable) throw error;
    if (error instanceof CandorError && error.code === 'kb_not_found') {
      log?.('warn', 'ask refused: knowledge base missing', { channel, error: error.message });
      return { reply: { kind: 'problem', message: NO_KB }, failed: true };
    }
    if (error instanceof CandorError && error.status < 500) return { reply: { kind: 'problem', message: error.message }, failed: false };
    log?.('error', 'ask failed', { channel, error: describeError(error) });
    return { reply: { kind: 'problem', message: UNAVAILABLE }, failed: true };
  }
}
