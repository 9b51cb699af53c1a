import type { webApi } from '@slack/bolt';

/** The reply looked for: its event, where it goes, and the question it answers (looked for after it). */
export interface PostedReply {
  readonly eventId: string;
  readonly reply: { readonly channel: string; readonly threadTs: string | undefined };
  readonly message: { readonly ts: string };
}

interface AnswerMetadata {
  readonly event_type?: string;
  readonly event_payload?: { readonly event_id?: unknown; readonly part?: unknown };
}

/**
 * The parts of an event's reply already in the conversation (part → ts): the thread's replies, or the channel's
 * messages after the question, with their metadata. A reply posted before parts were numbered counts as part 0.
 */
export async function findPosted(client: webApi.WebClient, target: PostedReply, eventType: string): Promise<Map<number, string>> {
  const threadTs = target.reply.threadTs;
  const found = new Map<number, string>();
  let cursor: string | undefined;
  do {
    const page = threadTs
      ? await client.conversations.replies({
          channel: target.reply.channel,
          ts: threadTs,
          oldest: target.message.ts,
          include_all_metadata: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        })
      : await client.conversations.history({
          channel: target.reply.channel,
          oldest: target.message.ts,
          include_all_metadata: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
    for (const message of page.messages ?? []) {
      const metadata = (message as { metadata?: AnswerMetadata }).metadata;
      if (metadata?.event_type !== eventType || metadata.event_payload?.event_id !== target.eventId) continue;
      const part = Number(metadata.event_payload.part ?? 0);
      if (Number.isInteger(part) && !found.has(part)) found.set(part, message.ts ?? '');
    }
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
  return found;
}
