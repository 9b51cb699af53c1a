import type { webApi } from '@slack/bolt';

import type { Log } from '../../kernel/log.js';
import type { Reply } from '../chat/chat-message.js';
import { renderSlackReply } from './render-slack-reply.js';
import type { ReplyButtons } from './reply-actions.js';
import { describeSlackError } from './working-reaction.js';

/** Where a question was asked and where its reply goes. */
export interface SlackTarget {
  readonly eventId: string;
  readonly reply: { readonly channel: string; readonly threadTs: string | undefined };
  /** The question message (the reply is looked for after it). */
  readonly message: { readonly channel: string; readonly ts: string };
}

/** Message metadata that marks a reply as the answer to one event, so a retry can see it was posted. */
export const ANSWER_EVENT_TYPE = 'candor_answer';

/** Channel-level Web API errors: the reply is dropped for good with a log line saying what to do. */
const DELIVERY_HINTS: Record<string, string> = {
  not_in_channel: 'invite the bot to the channel (/invite @Candor)',
  channel_not_found: 'the channel was deleted or the bot cannot see it',
  is_archived: 'the channel is archived',
  msg_too_long: 'the reply exceeded Slack limits',
  invalid_blocks: 'Slack rejected the reply blocks',
};

/**
 * Posts a reply at most once per event where Slack lets us check: every
 * message carries the event id in its metadata, and a retry (the inbox took
 * the question again after a crash) first looks for it in the thread. Returns
 * the first message's ts; null when Slack refused it for good; throws when a
 * later try may work (network, 5xx, rate limits after the client's own retries).
 * `buttons` puts the reply's feedback and "Ask an expert" buttons under it.
 */
export async function postReplyOnce(
  client: webApi.WebClient,
  target: SlackTarget,
  reply: Reply,
  options: { retry: boolean; log: Log; buttons?: ReplyButtons | undefined },
): Promise<string | null> {
  if (options.retry) {
    const earlier = await findPosted(client, target).catch((error: unknown) => {
      // Without the history scopes the check cannot be made: post, and accept that it may be twice.
      options.log('warn', 'slack: could not look for an earlier reply; posting', {
        eventId: target.eventId,
        code: describeSlackError(error),
      });
      return null;
    });
    if (earlier !== null) {
      options.log('info', 'slack: reply already posted by an earlier try; not posting again', { eventId: target.eventId, ts: earlier });
      return earlier;
    }
  }
  let first: string | null = null;
  for (const message of renderSlackReply(reply, options.buttons)) {
    try {
      const posted = await client.chat.postMessage({
        channel: target.reply.channel,
        ...(target.reply.threadTs ? { thread_ts: target.reply.threadTs } : {}),
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
        unfurl_media: false,
        metadata: { event_type: ANSWER_EVENT_TYPE, event_payload: { event_id: target.eventId } },
      });
      first ??= posted.ts ?? '';
    } catch (error) {
      const code = describeSlackError(error);
      const hint = DELIVERY_HINTS[code];
      if (hint === undefined) throw new Error(`slack: reply not delivered yet (${code})`, { cause: error });
      options.log('warn', 'slack: reply not delivered', { code, channel: target.reply.channel, eventId: target.eventId, hint });
      return first;
    }
  }
  return first;
}

/** The ts of a reply to this event already in the conversation, or null. */
async function findPosted(client: webApi.WebClient, target: SlackTarget): Promise<string | null> {
  const threadTs = target.reply.threadTs;
  const result = threadTs
    ? await client.conversations.replies({
        channel: target.reply.channel,
        ts: threadTs,
        oldest: target.message.ts,
        include_all_metadata: true,
        limit: 200,
      })
    : await client.conversations.history({
        channel: target.reply.channel,
        oldest: target.message.ts,
        include_all_metadata: true,
        limit: 200,
      });
  for (const message of result.messages ?? []) {
    const metadata = (message as { metadata?: { event_type?: string; event_payload?: { event_id?: unknown } } }).metadata;
    if (metadata?.event_type === ANSWER_EVENT_TYPE && metadata.event_payload?.event_id === target.eventId) return message.ts ?? '';
  }
  return null;
}
