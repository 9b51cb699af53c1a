import type { webApi } from '@slack/bolt';

import type { Log } from '../../kernel/log.js';
import type { Reply } from '../chat/chat-message.js';
import { openUserId } from '../chat/sealed-user.js';
import { renderSlackReply } from './render-slack-reply.js';
import type { ReplyButtons } from './reply-actions.js';
import { postReplyOnce, type SendOnce, type SlackTarget } from './slack-delivery.js';
import type { SlackDelivery } from './slack-inbox.js';
import { describeSlackError } from './working-reaction.js';

export interface DeliveryOptions {
  readonly delivery: SlackDelivery;
  readonly once: SendOnce;
  /** Sends failing without a 429 tried again in this try. @default 3 */
  readonly retries?: number | undefined;
  readonly log: Log;
  readonly buttons?: ReplyButtons | undefined;
  /** Opens the sealed asker of an ephemeral reply. */
  readonly salt: string;
  /** SLACK_API_URL: a response URL on its host is trusted as well as Slack's own (a proxy, a local fake). */
  readonly apiUrl: string;
  readonly fetch?: typeof fetch;
}

/** The Web API clients a delivery uses: `poster` without retries of its own (postReplyOnce retries), `reader` with. */
export interface SlackClients {
  readonly poster: webApi.WebClient;
  readonly reader: webApi.WebClient;
}

/**
 * Delivers a reply the way the question asked for it: in the thread (once per
 * event, see postReplyOnce), ephemerally to the asker in the channel
 * (chat.postEphemeral), or to a slash command's response URL (only the asker
 * sees it). Returns a reference to what was posted; null when Slack refused it
 * for good; throws when a later try may work. Ephemeral messages cannot be
 * looked up afterwards, so one sent when the process died (between the send
 * and the inbox hearing of it) is sent again: the asker may see it twice.
 */
export async function deliverSlackReply(
  clients: SlackClients,
  target: SlackTarget,
  reply: Reply,
  options: DeliveryOptions,
): Promise<string | null> {
  const { delivery } = options;
  if (delivery.kind === 'thread') return postReplyOnce(clients.poster, clients.reader, target, reply, options);
  const client = clients.reader;
  const messages = renderSlackReply(reply, options.buttons);
  if (options.once.maybeSent) {
    options.log('info', 'slack: sending again a reply that cannot be looked up (an earlier try may have sent it)', {
      eventId: target.eventId,
      delivery: delivery.kind,
    });
  }
  // Nothing to wait for before a retry: it cannot look, so it sends again at once.
  await options.once.sending(0);
  if (delivery.kind === 'ephemeral') {
    let user: string;
    try {
      user = openUserId(delivery.user, options.salt);
    } catch {
      options.log('warn', 'slack: the asker of an ephemeral reply cannot be read (CANDOR_USER_HASH_SALT changed?); not delivered');
      return null;
    }
    let first: string | null = null;
    for (const message of messages) {
      try {
        const posted = await client.chat.postEphemeral({
          channel: target.reply.channel,
          user,
          ...(target.reply.threadTs ? { thread_ts: target.reply.threadTs } : {}),
          text: message.text,
          blocks: message.blocks,
        });
        first ??= `ephemeral:${posted.message_ts ?? ''}`;
      } catch (error) {
        const code = describeSlackError(error);
        if (['not_in_channel', 'channel_not_found', 'user_not_in_channel', 'is_archived'].includes(code)) {
          options.log('warn', 'slack: ephemeral reply not delivered', { code, channel: target.reply.channel, eventId: target.eventId });
          return first;
        }
        throw new Error(`slack: ephemeral reply not delivered yet (${code})`, { cause: error });
      }
    }
    return first;
  }
  if (!trustedResponseUrl(delivery.url, options.apiUrl)) {
    options.log('warn', 'slack: a response URL off Slack was not called', { eventId: target.eventId });
    return null;
  }
  const send = options.fetch ?? fetch;
  for (const [i, message] of messages.entries()) {
    const response = await send(delivery.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', replace_original: i === 0, text: message.text, blocks: message.blocks }),
      signal: AbortSignal.timeout(10_000),
    });
    // Slack answers 404 for a response URL past its 30 minutes or 5 uses: nothing will ever take it.
    if (response.status === 404 || response.status === 410) {
      options.log('warn', 'slack: response URL expired; reply not delivered', { eventId: target.eventId, status: response.status });
      return null;
    }
    if (!response.ok) throw new Error(`slack: response URL answered ${response.status}`);
  }
  return 'response_url';
}

/** Response URLs are Slack's (hooks.slack.com over https) or on SLACK_API_URL's host. */
export function trustedResponseUrl(url: string, apiUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:' && parsed.hostname === 'hooks.slack.com') return true;
  return parsed.origin === new URL(apiUrl).origin;
}
