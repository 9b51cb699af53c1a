import { ATTR } from '../../telemetry/attributes.js';
import { instruments } from '../../telemetry/instruments.js';
import { withTraceFrom } from '../../telemetry/trace-carrier.js';
import { answerOrGiveUp, EVENT_ATTR, type AnswerOnceDeps } from '../chat/answer-once.js';
import type { ChatServices } from '../chat/chat-services.js';
import type { InboxWorkerOptions } from '../chat/inbox-worker.js';
import { deliverSlackReply, type SlackClients } from './deliver-slack-reply.js';
import type { RateGate } from './rate-gate.js';
import { autoAskExperts, replyButtons } from './slack-feedback.js';
import { slackEntry } from './slack-inbox.js';
import { workingReaction } from './working-reaction.js';

export interface AnswerSlackOptions {
  readonly reaction: Parameters<typeof workingReaction>[2];
  readonly apiUrl: string;
  /** SLACK_SEND_SETTLE_MS. */
  readonly settleMs: number;
  /** chat.postMessage's rate-limit gate, shared by every reply. */
  readonly gate: RateGate;
  /** Sends failing without a 429 tried again within one try (the channel's `retries`). */
  readonly retries?: number | undefined;
}

/**
 * How an inbox worker answers a stored question: once per event, with the working reaction while it takes long,
 * posted where the question asked for it (marked "sending" in the inbox first); a refusal may then go to the KB's
 * experts. Waits on Slack's rate limits are counted in the inbox metrics.
 */
export function answerSlackEntry(
  host: ChatServices,
  deps: AnswerOnceDeps,
  clients: SlackClients,
  { reaction, apiUrl, settleMs, gate, retries }: AnswerSlackOptions,
): InboxWorkerOptions['process'] {
  const waited = (ms: number) => instruments.inboxRateLimitWait().add(ms / 1000, { channel: 'slack' });
  return (entry, { final }) => {
    const q = slackEntry(entry);
    if (entry.postedRef !== null) return Promise.resolve(entry.postedRef);
    const once = { sending: (ms: number) => host.inbox.sending(entry.id, ms), maybeSent: entry.maybeSent, settleMs, gate, waited };
    return withTraceFrom(q.trace, () =>
      answerOrGiveUp(
        deps,
        q.question,
        {
          attributes: { [EVENT_ATTR.retryNum]: q.retryNum, [EVENT_ATTR.attempt]: entry.attempts, [ATTR.slackDirect]: q.direct },
          ...(q.message.ts === ''
            ? {}
            : { working: () => workingReaction(clients.reader, { channel: q.message.channel, timestamp: q.message.ts }, reaction) }),
          deliver: async (reply) => {
            const ts = await deliverSlackReply(clients, { eventId: entry.eventId, reply: q.reply, message: q.message }, reply, {
              delivery: q.delivery,
              once,
              log: host.log,
              buttons: replyButtons(host.experts, reply),
              salt: deps.userHashSalt,
              apiUrl,
              retries,
            });
            // Before the inbox hears it was posted: a retry after a crash here asks again (at most one request per reply).
            if (ts !== null && q.delivery.kind === 'thread') await autoAskExperts(host, reply, q.reply);
            if (ts !== null) await host.inbox.posted(entry.id, ts);
            return ts;
          },
        },
        final,
      ),
    );
  };
}
