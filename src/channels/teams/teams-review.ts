import { CardFactory, MessageFactory, type Activity, type CloudAdapter, type ConversationReference, type TurnContext } from 'botbuilder';
import { and, eq, isNull } from 'drizzle-orm';

import { isReviewer, tasksFor, type ReviewTask } from '../../core/review/review-tasks.js';
import type { Log } from '../../log.js';
import { currentLabels, removeLabel, setLabel } from '../../review/label-store.js';
import { findSampleByPost, loadReviewItems } from '../../review/review-items.js';
import type { Db } from '../../store/open-store.js';
import { reviewSamples } from '../../store/schema.js';
import { isLabelSubmit, renderTeamsReviewCard, TEAMS_REACTION_LABELS } from './render-teams-review-card.js';

export interface TeamsReviewDeps {
  readonly db: Db;
  readonly log: Log;
  readonly reviewers: readonly string[];
  readonly tasks: readonly ReviewTask[];
  /** Where cards go: "serviceUrl|conversationId" (a channel or chat the bot is in). */
  readonly conversation: string | undefined;
}

const NOT_A_REVIEWER = "Thanks — but only configured reviewers' labels count, so this one was not recorded.";

/** The reviewer id of a Teams user: their Azure AD object id when Teams sends it, else the channel account id. */
const reviewerId = (context: TurnContext) => context.activity.from.aadObjectId ?? context.activity.from.id;
const postRef = (conversationId: string, activityId: string) => `teams:${conversationId}|${activityId}`;

/** A card button press (an Action.Submit message carrying our label data). True when it was one. */
export async function handleLabelSubmit(context: TurnContext, deps: TeamsReviewDeps): Promise<boolean> {
  const submit = context.activity.value;
  if (!isLabelSubmit(submit)) return false;
  const a = context.activity;
  const item = a.replyToId ? await findSampleByPost(deps.db, postRef(a.conversation.id, a.replyToId)) : null;
  if (!item || item.sampleId !== submit.sampleId || !tasksFor(item.decision).some((t) => t.id === submit.task)) return true;
  const task = deps.tasks.find((t) => t.id === submit.task);
  if (!task?.outcomes.includes(submit.value)) return true;
  const user = reviewerId(context);
  if (!isReviewer(deps.reviewers, 'teams', user)) {
    await context.sendActivity(MessageFactory.text(NOT_A_REVIEWER));
    return true;
  }
  const outcome = await setLabel(deps.db, {
    sampleId: item.sampleId,
    task: submit.task,
    annotator: `teams:${user}`,
    value: submit.value,
    via: 'button',
    eventId: `teams:${a.id}`,
  });
  deps.log('info', 'teams: review label', { sampleId: item.sampleId, task: submit.task, outcome });
  await refreshCard(context, deps, item.sampleId, a.replyToId as string);
  return true;
}

/** A reaction on a review card: like/sad label the abstention task; removing it removes the label. */
export async function handleReviewReaction(
  context: TurnContext,
  deps: TeamsReviewDeps,
  kind: 'added' | 'removed',
  reactions: readonly string[],
): Promise<void> {
  const a = context.activity;
  if (!a.replyToId) return;
  const item = await findSampleByPost(deps.db, postRef(a.conversation.id, a.replyToId));
  if (!item) return;
  const user = reviewerId(context);
  for (const reaction of reactions) {
    const label = TEAMS_REACTION_LABELS[reaction];
    if (!label) continue;
    if (!isReviewer(deps.reviewers, 'teams', user)) return;
    const change = {
      sampleId: item.sampleId,
      task: label.task,
      annotator: `teams:${user}`,
      value: label.value,
      via: 'reaction' as const,
      eventId: a.id ? `teams:${a.id}:${reaction}` : undefined,
    };
    const outcome = kind === 'added' ? await setLabel(deps.db, change) : await removeLabel(deps.db, change);
    deps.log('info', 'teams: review label', { sampleId: item.sampleId, task: label.task, outcome });
  }
}

async function refreshCard(context: TurnContext, deps: TeamsReviewDeps, sampleId: number, activityId: string): Promise<void> {
  const [item] = await loadReviewItems(deps.db, [sampleId]);
  if (!item) return;
  const card = renderTeamsReviewCard(item, tasksOf(deps, item.decision), await currentLabels(deps.db, { sampleIds: [sampleId] }));
  await context.updateActivity({ ...MessageFactory.attachment(CardFactory.adaptiveCard(card)), id: activityId }).catch((error: unknown) => {
    deps.log('warn', 'teams: could not update a review card', { error: (error as Error).message });
  });
}

function tasksOf(deps: TeamsReviewDeps, decision: 'answer' | 'abstain'): ReviewTask[] {
  return tasksFor(decision).map((t) => deps.tasks.find((d) => d.id === t.id) ?? t);
}

/** Sends a new message (not a reply) into the review conversation; returns the sent activity's id. */
async function sendToReview(adapter: CloudAdapter, appId: string, conversation: string, activity: Partial<Activity>): Promise<string> {
  const [serviceUrl = '', conversationId = ''] = conversation.split('|');
  const reference: Partial<ConversationReference> = {
    serviceUrl,
    channelId: 'msteams',
    conversation: { id: conversationId, isGroup: true, conversationType: 'channel', name: 'review' },
    bot: { id: appId, name: 'Candor' },
  };
  let id = '';
  await adapter.continueConversationAsync(appId, reference, async (context) => {
    // A new message in the conversation, not a reply to the synthetic continuation activity.
    context.onSendActivities(async (_ctx, activities, next) => {
      for (const a of activities) delete a.replyToId;
      return next();
    });
    id = (await context.sendActivity(activity))?.id ?? '';
  });
  return id;
}

/** Posts a plain message (the agreement report's summary) into the review conversation. */
export async function postTeamsSummary(adapter: CloudAdapter, appId: string, deps: TeamsReviewDeps, text: string): Promise<void> {
  if (!deps.conversation) return;
  await sendToReview(adapter, appId, deps.conversation, MessageFactory.text(text)).catch((error: unknown) => {
    deps.log('error', 'teams: could not post the agreement summary', { error: (error as Error).message });
  });
}

/** Posts a card for each sample not posted anywhere yet, proactively, into the configured conversation. */
export async function postPendingTeamsCards(adapter: CloudAdapter, appId: string, deps: TeamsReviewDeps, limit = 50): Promise<number> {
  if (!deps.conversation) return 0;
  const conversationId = deps.conversation.split('|')[1] ?? '';
  const pending = await deps.db
    .select({ id: reviewSamples.id })
    .from(reviewSamples)
    .where(isNull(reviewSamples.postedTo))
    .orderBy(reviewSamples.id)
    .limit(limit);
  let posted = 0;
  for (const item of await loadReviewItems(
    deps.db,
    pending.map((p) => p.id),
  )) {
    const claimed = await deps.db
      .update(reviewSamples)
      .set({ postedTo: 'teams' })
      .where(and(eq(reviewSamples.id, item.sampleId), isNull(reviewSamples.postedTo)))
      .returning({ id: reviewSamples.id });
    if (claimed.length === 0) continue;
    try {
      const id = await sendToReview(
        adapter,
        appId,
        deps.conversation,
        MessageFactory.attachment(CardFactory.adaptiveCard(renderTeamsReviewCard(item, tasksOf(deps, item.decision)))),
      );
      await deps.db
        .update(reviewSamples)
        .set({ postRef: postRef(conversationId, id) })
        .where(eq(reviewSamples.id, item.sampleId));
      posted += 1;
    } catch (error) {
      await deps.db.update(reviewSamples).set({ postedTo: null }).where(eq(reviewSamples.id, item.sampleId));
      deps.log('error', 'teams: could not post a review card', { error: (error as Error).message });
      break;
    }
  }
  return posted;
}
