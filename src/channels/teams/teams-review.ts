import { CardFactory, MessageFactory, type CloudAdapter, type TurnContext } from 'botbuilder';

import { describeError } from '../../errors.js';
import type { Log } from '../../log.js';
import type { CardReplies, ReviewDesk } from '../../review/review-desk.js';
import { sendNew } from './proactive-send.js';
import { isLabelSubmit, renderTeamsReviewCard, TEAMS_REACTION_LABELS } from './render-teams-review-card.js';

export interface TeamsReviewDeps {
  readonly review: ReviewDesk;
  readonly log: Log;
  /** Where cards go: "serviceUrl|conversationId" (a channel or chat the bot is in). */
  readonly conversation: string | undefined;
}

/** Review in Teams: what the bot does with card buttons and reactions, and what the review schedule posts. */
export interface TeamsReview {
  /** A card button press (an Action.Submit message carrying our label data). True when it was one. */
  handleLabelSubmit(context: TurnContext): Promise<boolean>;
  /** A reaction on a review card: like/sad label the abstention task; removing it removes the label. */
  handleReviewReaction(context: TurnContext, kind: 'added' | 'removed', reactions: readonly string[]): Promise<void>;
  /** Posts a card for each sample not posted anywhere yet, proactively, into the configured conversation. */
  postPending(): Promise<number>;
  /** Posts a plain message (the agreement report's summary) into the review conversation. */
  postSummary(text: string): Promise<void>;
}

/** The reviewer id of a Teams user: their Azure AD object id when Teams sends it, else the channel account id. */
const reviewerId = (context: TurnContext) => context.activity.from.aadObjectId ?? context.activity.from.id;
const postRef = (conversationId: string, activityId: string) => `teams:${conversationId}|${activityId}`;

/**
 * Review cards as Adaptive Cards in a Teams conversation. What a label means
 * and who may give one is decided by the review desk; this file only speaks
 * Bot Framework: proactive posts, card updates, replies.
 */
export function teamsReview(adapter: CloudAdapter, appId: string, deps: TeamsReviewDeps): TeamsReview {
  const desk = deps.review.open({
    platform: 'teams',
    async post(item, tasks) {
      const conversation = deps.conversation as string; // postPending (below) runs only with a review conversation
      const card = MessageFactory.attachment(CardFactory.adaptiveCard(renderTeamsReviewCard(item, tasks)));
      return postRef(conversation.split('|')[1] ?? '', await sendNew(adapter, appId, conversation, card));
    },
  });
  /** Replies on the card the activity points at: update it in place; tell the person by a reply (buttons only). */
  const replies = (context: TurnContext, cardId: string, tell: boolean): CardReplies => ({
    async update(item, tasks, labels) {
      await context.updateActivity({
        ...MessageFactory.attachment(CardFactory.adaptiveCard(renderTeamsReviewCard(item, tasks, labels))),
        id: cardId,
      });
    },
    tell: tell ? async (text) => void (await context.sendActivity(MessageFactory.text(text))) : undefined,
  });

  return {
    async handleLabelSubmit(context) {
      const submit = context.activity.value;
      if (!isLabelSubmit(submit)) return false;
      const a = context.activity;
      if (!a.replyToId) return true;
      const label = {
        postRef: postRef(a.conversation.id, a.replyToId),
        user: reviewerId(context),
        task: submit.task,
        value: submit.value,
        action: 'set' as const,
        via: 'button' as const,
      };
      await desk.label({ ...label, eventId: `teams:${a.id}`, sampleId: submit.sampleId }, replies(context, a.replyToId, true));
      return true;
    },
    async handleReviewReaction(context, kind, reactions) {
      const a = context.activity;
      if (!a.replyToId) return;
      for (const reaction of reactions) {
        const label = TEAMS_REACTION_LABELS[reaction];
        if (!label) continue;
        const eventId = a.id ? `teams:${a.id}:${reaction}` : undefined;
        const change = {
          postRef: postRef(a.conversation.id, a.replyToId),
          user: reviewerId(context),
          ...label,
          action: kind === 'added' ? ('set' as const) : ('remove' as const),
        };
        // A reaction gets no note: a reply to every stranger's like would only be noise in the review conversation.
        await desk.label({ ...change, via: 'reaction', eventId }, replies(context, a.replyToId, false));
      }
    },
    postPending: () => (deps.conversation ? desk.postPending() : Promise.resolve(0)),
    async postSummary(text) {
      if (!deps.conversation) return;
      await sendNew(adapter, appId, deps.conversation, MessageFactory.text(text)).catch((error: unknown) => {
        deps.log('error', 'teams: could not post the agreement summary', { error: describeError(error) });
      });
    },
  };
}
