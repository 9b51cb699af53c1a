import type { webApi } from '@slack/bolt';

import type { Log } from '../../kernel/log.js';
import type { Reply } from '../chat/chat-message.js';
import { findPosted } from './find-posted.js';
import type { RateGate } from './rate-gate.js';
import { renderSlackReply } from './render-slack-reply.js';
import type { ReplyButtons } from './reply-actions.js';
import { sendOutcome } from './send-outcome.js';
import { describeSlackError } from './working-reaction.js';

/** Where a question was asked and where its reply goes. */
export interface SlackTarget {
  readonly eventId: string;
  readonly reply: { readonly channel: string; readonly threadTs: string | undefined };
  /** The question message (the reply is looked for after it). */
  readonly message: { readonly channel: string; readonly ts: string };
}

/** What keeps a reply from showing twice: the inbox's sending mark, the settle window, the rate-limit gate. */
export interface SendOnce {
  /** Marks, in the inbox, that what was sent may land up to `landsWithinMs` from now (0: it has, or never will). */
  readonly sending: (landsWithinMs: number) => Promise<void>;
  /** An earlier try sent a reply that may be in the conversation (the inbox's maybeSent): look first. */
  readonly maybeSent: boolean;
  /** How long Slack may take to accept a send left unanswered; the conversation is looked at after that. */
  readonly settleMs: number;
  /** chat.postMessage's gate: closed by every 429 for its Retry-After. */
  readonly gate: RateGate;
  /** Called with each wait the gate imposed on this reply (ms), for the inbox metrics. */
  readonly waited?: (ms: number) => void;
}

export interface PostOptions {
  readonly once: SendOnce;
  readonly log: Log;
  readonly buttons?: ReplyButtons | undefined;
  /** Sends that fail without a 429 (5xx, network, timeout) tried again in this try. @default 3 */
  readonly retries?: number | undefined;
}

/** 429s in a row that one try waits out before it gives the row back to the inbox. */
const MAX_RATE_LIMITED = 50;

/**
 * Posts a reply's messages in the thread, each at most once as a person sees
 * it: every message carries the event id and its part in its metadata, and a
 * send that may have reached Slack without an answer (the process died, the
 * connection dropped, Slack answered 5xx) is looked for in the conversation
 * before it is sent again — once Slack has had `settleMs` to accept it. A 429
 * waits its Retry-After (the gate) and sends again: Slack did not take it.
 * Returns the first message's ts; null when Slack refused it for good; throws
 * when a later try may work.
 */
export async function postReplyOnce(
  poster: webApi.WebClient,
  reader: webApi.WebClient,
  target: SlackTarget,
  reply: Reply,
  options: PostOptions,
): Promise<string | null> {
  const { once, log } = options;
  const messages = renderSlackReply(reply, options.buttons);
  const posted = new Map<number, string>();
  // The inbox hands a row over only once what an earlier try sent would have landed: look at once.
  let lookAt = once.maybeSent ? Date.now() : null;
  let failures = 0;
  let limited = 0;
  for (let part = 0; part < messages.length; part = nextPart(posted, messages.length)) {
    if (lookAt !== null) {
      await sleepUntil(lookAt);
      lookAt = null;
      const earlier = await lookFor(reader, target, log);
      for (const [p, ts] of earlier) posted.set(p, ts);
      if (earlier.size > 0) log('info', 'slack: reply already posted by an earlier try; not posting it again', { eventId: target.eventId });
      continue;
    }
    const waited = await once.gate.pass();
    if (waited > 0) once.waited?.(waited);
    await once.sending(once.settleMs);
    const sentAt = Date.now();
    const outcome = await sendOutcome(() => poster.chat.postMessage(message(target, messages[part]!, part)));
    if (outcome.kind === 'posted') posted.set(part, outcome.ts);
    else if (outcome.kind === 'rate_limited') {
      once.gate.closeFor(outcome.retryAfterMs);
      await once.sending(0);
      log('info', 'slack: rate limited; the reply waits as Slack said', { eventId: target.eventId, retryAfterMs: outcome.retryAfterMs });
      if (++limited > MAX_RATE_LIMITED) throw new Error(`slack: reply still rate-limited after ${MAX_RATE_LIMITED} tries`);
    } else if (outcome.kind === 'refused') {
      log('warn', 'slack: reply not delivered', {
        code: outcome.code,
        channel: target.reply.channel,
        eventId: target.eventId,
        hint: outcome.hint,
      });
      return posted.get(0) ?? null;
    } else {
      // It may have been posted: look before sending again, at once when Slack answered, else once it had time to.
      // Slack answered: whatever it did is visible now (a try after a crash need not wait).
      if (outcome.answered) await once.sending(0);
      if (++failures > (options.retries ?? 3)) throw new Error(`slack: reply not delivered yet (${outcome.code})`);
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** failures));
      lookAt = outcome.answered ? Date.now() : sentAt + once.settleMs;
    }
  }
  return posted.get(0) ?? null;
}

function nextPart(posted: ReadonlyMap<number, string>, count: number): number {
  let part = 0;
  while (part < count && posted.has(part)) part += 1;
  return part;
}

function message(target: SlackTarget, m: ReturnType<typeof renderSlackReply>[number], part: number) {
  return {
    channel: target.reply.channel,
    ...(target.reply.threadTs ? { thread_ts: target.reply.threadTs } : {}),
    text: m.text,
    blocks: m.blocks,
    unfurl_links: false,
    unfurl_media: false,
    metadata: { event_type: ANSWER_EVENT_TYPE, event_payload: { event_id: target.eventId, part } },
  };
}

/** Message metadata that marks a reply as the answer to one event, so a retry can see it was posted. */
export const ANSWER_EVENT_TYPE = 'candor_answer';

/**
 * The parts of this event's reply already in the conversation. Slack refusing the look (no history scope, say)
 * means it cannot be made: nothing found, and the reply is posted (perhaps twice). Anything else throws: the
 * inbox tries again later, and looks again then.
 */
async function lookFor(reader: webApi.WebClient, target: SlackTarget, log: Log): Promise<Map<number, string>> {
  try {
    return await findPosted(reader, target, ANSWER_EVENT_TYPE);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'slack_webapi_platform_error') throw error;
    log('warn', 'slack: could not look for an earlier reply; posting', { eventId: target.eventId, code: describeSlackError(error) });
    return new Map();
  }
}

async function sleepUntil(at: number): Promise<void> {
  for (let left = at - Date.now(); left > 0; left = at - Date.now()) await new Promise((resolve) => setTimeout(resolve, left));
}
