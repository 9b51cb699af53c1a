import type { Activity, CloudAdapter, ConversationReference, TurnContext } from 'botbuilder';

type Outgoing = Parameters<TurnContext['sendActivity']>[0];

/** "serviceUrl|conversationId" (CANDOR_REVIEW_TEAMS_CONVERSATION, an experts entry's `teams`) as a conversation reference. */
export function conversationAt(conversation: string, appId: string): Partial<ConversationReference> {
  const [serviceUrl = '', conversationId = ''] = conversation.split('|');
  return {
    serviceUrl,
    channelId: 'msteams',
    conversation: { id: conversationId, isGroup: true, conversationType: 'channel', name: 'candor' },
    bot: { id: appId, name: 'Candor' },
  };
}

/** Sends a new message (not a reply) into a configured conversation ("serviceUrl|conversationId"); returns its activity id. */
export async function sendNew(adapter: CloudAdapter, appId: string, conversation: string, activity: Partial<Activity>): Promise<string> {
  let id = '';
  await adapter.continueConversationAsync(appId, conversationAt(conversation, appId), async (context) => {
    // A new message in the conversation, not a reply to the synthetic continuation activity.
    context.onSendActivities(async (_ctx, activities, next) => {
      for (const a of activities) delete a.replyToId;
      return next();
    });
    id = (await context.sendActivity(activity))?.id ?? '';
  });
  return id;
}

/** Sends one activity into a stored conversation, as a reply to `replyToId` when given; returns its id. */
export async function sendReply(
  adapter: CloudAdapter,
  appId: string,
  reference: Partial<ConversationReference>,
  replyToId: string | undefined,
  activity: Outgoing,
): Promise<string | null> {
  let id: string | null = null;
  await adapter.continueConversationAsync(appId, reference, async (context) => {
    // The continuation turn has an id of its own; replies thread under the activity they answer.
    context.activity.id = replyToId;
    const sent = await context.sendActivity(activity);
    id = sent?.id ?? '';
  });
  return id;
}

/** Replaces a message the bot sent into a configured conversation ("serviceUrl|conversationId"). */
export async function updateIn(
  adapter: CloudAdapter,
  appId: string,
  conversation: string,
  activityId: string,
  activity: Partial<Activity>,
): Promise<void> {
  await adapter.continueConversationAsync(appId, conversationAt(conversation, appId), async (context) => {
    await context.updateActivity({ ...activity, id: activityId });
  });
}
