import type { Activity, CloudAdapter, ConversationParameters, ConversationReference, TurnContext } from 'botbuilder';

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
    asNewMessages(context);
    id = (await context.sendActivity(activity))?.id ?? '';
  });
  return id;
}

/** What the turn sends goes out as new messages, not replies to the turn's own (synthetic) activity. */
function asNewMessages(context: TurnContext): void {
  context.onSendActivities(async (_ctx, activities, next) => {
    for (const a of activities) delete a.replyToId;
    return next();
  });
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

/** Who the Bot Framework issues outbound tokens for, in the public cloud. */
const CONNECTOR_AUDIENCE = 'https://api.botframework.com';

/**
 * Sends one activity to the user of a stored conversation in their personal chat with the bot (creating it
 * if need be): Teams has no ephemeral messages, so a private answer goes there. Returns its id.
 */
export async function sendPersonal(
  adapter: CloudAdapter,
  appId: string,
  reference: Partial<ConversationReference>,
  activity: Outgoing,
): Promise<string | null> {
  const user = reference.user?.id;
  const tenantId = reference.conversation?.tenantId;
  if (!user || !reference.serviceUrl) return null;
  let id: string | null = null;
  await adapter.createConversationAsync(
    appId,
    reference.channelId ?? 'msteams',
    reference.serviceUrl,
    CONNECTOR_AUDIENCE,
    {
      isGroup: false,
      bot: { id: appId, name: 'Candor' },
      members: [{ id: user, name: '' }],
      tenantId: tenantId ?? '',
      channelData: tenantId ? { tenant: { id: tenantId } } : {},
      activity: undefined as never,
    } as ConversationParameters,
    async (context) => {
      // A new message in the new chat, not a reply to the synthetic "conversation created" activity.
      asNewMessages(context);
      id = (await context.sendActivity(activity))?.id ?? '';
    },
  );
  return id;
}
