import { CardFactory, MessageFactory, type AdaptiveCardInvokeResponse, type CloudAdapter, type TurnContext } from 'botbuilder';
import { z } from 'zod';

import { outcomeLabel } from '../../core/review/review-tasks.js';
import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import type { CardLabelOutcome, CardReplies, ChannelReview, ReviewDesk } from '../../review/review-desk.js';
import { sendNew } from './proactive-send.js';
import {
  isLabelSubmit,
  renderTeamsReviewCard,
  REVIEW_VERBS,
  reviewModel,
  TEAMS_REACTION_LABELS,
  type ReviewAdaptiveCard,
  type TeamsReviewModel,
} from './render-teams-review-card.js';

export interface TeamsReviewDeps {
  readonly review: ReviewDesk;
  readonly log: Log;
  /** Where cards go: "serviceUrl|conversationId" (a channel or chat the bot is in). */
  readonly conversation: string | undefined;
  /** CANDOR_PUBLIC_URL: cards get an "Open in console" button. @default no button */
  readonly publicUrl?: string | undefined;
}

/** An `adaptiveCard/action` invoke's action, as botbuilder reads it. */
export interface CardAction {
  readonly verb?: string | undefined;
  readonly data?: unknown;
}

/** Review in Teams: what the bot does with card buttons and reactions, and what the review schedule posts. */
export interface TeamsReview {
  /** An Action.Execute on a review card (a label, the menus' "Save", a refresh); null when the action is not ours. */
  handleCardAction(context: TurnContext, action: CardAction): Promise<AdaptiveCardInvokeResponse | null>;
  /** A press on a card posted before Universal Actions (Action.Submit carrying our label data). True when it was one. */
  handleLabelSubmit(context: TurnContext): Promise<boolean>;
  /** A reaction on a review card: like/sad label the abstention task; removing it removes the label. */
  handleReviewReaction(context: TurnContext, kind: 'added' | 'removed', reactions: readonly string[]): Promise<void>;
  /** Posts a card for each sample not posted anywhere yet, proactively, into the configured conversation. */
  postPending(): Promise<number>;
  /** Posts a plain message (the agreement report's summary) into the review conversation. */
  postSummary(text: string): Promise<void>;
}

const labelData = z.object({ candor: z.literal('label'), sampleId: z.number().int(), task: z.string(), value: z.string() });
/** "Save": the menus' values, merged into the action's data by Teams under each menu's id (the task). */
const labelsData = z.object({ candor: z.literal('labels'), sampleId: z.number().int() }).catchall(z.unknown());
const refreshData = z.object({
  candor: z.literal('review'),
  model: z.object({
    sampleId: z.number().int(),
    interactionId: z.number().int(),
    decision: z.string(),
    channel: z.string(),
    kb: z.string().nullable(),
    askedAt: z.string(),
    question: z.string(),
    reply: z.string(),
    sources: z.array(z.string()),
    tasks: z.array(z.string()),
    labels: z.array(z.tuple([z.string(), z.string(), z.string()])),
  }),
});

const CARD = 'application/vnd.microsoft.card.adaptive';
const message = (value: string): AdaptiveCardInvokeResponse => ({
  statusCode: 200,
  type: 'application/vnd.microsoft.activity.message',
  value: value as never,
});
const cardResponse = (card: ReviewAdaptiveCard): AdaptiveCardInvokeResponse => ({ statusCode: 200, type: CARD, value: card as never });

/** The reviewer id of a Teams user: their Azure AD object id when Teams sends it, else the channel account id. */
const reviewerId = (context: TurnContext) => context.activity.from.aadObjectId ?? context.activity.from.id;
/** A press in a channel thread names the conversation with `;messageid=…`; the card was posted to the conversation. */
const postRef = (conversationId: string, activityId: string) => `teams:${conversationId.split(';')[0]}|${activityId}`;

interface Choice {
  readonly task: string;
  readonly value: string;
}

/** The labels an Execute gives: one (a button), or each menu with a value ("Save"); null when it is not a label action. */
function choicesOf(action: CardAction, taskIds: readonly string[]): { sampleId: number; choices: Choice[] } | null {
  if (action.verb === REVIEW_VERBS.label) {
    const one = labelData.safeParse(action.data);
    return one.success ? { sampleId: one.data.sampleId, choices: [{ task: one.data.task, value: one.data.value }] } : null;
  }
  if (action.verb !== REVIEW_VERBS.labels) return null;
  const menus = labelsData.safeParse(action.data);
  if (!menus.success) return null;
  const choices = taskIds.flatMap((task) => {
    const value = menus.data[task];
    return typeof value === 'string' && value !== '' ? [{ task, value }] : [];
  });
  return { sampleId: menus.data.sampleId, choices };
}

/** Why a press changed nothing, in a few words for the presser. */
const NOTES: Partial<Record<CardLabelOutcome, string>> = {
  not_a_card: 'This is not a review card Candor knows.',
  not_a_label: 'That is not a label for this card.',
  duplicate_event: 'Already recorded.',
  not_current: 'Nothing to remove.',
};

/**
 * Review cards as Adaptive Cards in a Teams conversation. What a label means
 * and who may give one is decided by the review desk; this file only speaks
 * Bot Framework: proactive posts, card updates, invoke responses.
 */
export function teamsReview(adapter: CloudAdapter, appId: string, deps: TeamsReviewDeps): TeamsReview {
  const desk = deps.review.open({
    platform: 'teams',
    async post(item, tasks) {
      const conversation = deps.conversation as string; // postPending (below) runs only with a review conversation
      const card = renderTeamsReviewCard(reviewModel(item, tasks, []), tasks, { publicUrl: deps.publicUrl });
      return postRef(conversation.split('|')[1] ?? '', await sendNew(adapter, appId, conversation, attachment(card)));
    },
  });
  const cards: ReviewCards = { deps, desk };
  return {
    handleCardAction: (context, action) => answerCardAction(cards, context, action),
    handleLabelSubmit: (context) => labelBySubmit(cards, context),
    handleReviewReaction: (context, kind, reactions) => labelByReaction(cards, context, kind, reactions),
    postPending: () => (deps.conversation ? desk.postPending() : Promise.resolve(0)),
    async postSummary(text) {
      if (!deps.conversation) return;
      await sendNew(adapter, appId, deps.conversation, MessageFactory.text(text)).catch((error: unknown) => {
        deps.log('error', 'teams: could not post the agreement summary', { error: describeError(error) });
      });
    },
  };
}

/** What the review cards' handlers act with: the settings and this channel's side of the desk. */
interface ReviewCards {
  readonly deps: TeamsReviewDeps;
  readonly desk: ChannelReview;
}

const attachment = (card: ReviewAdaptiveCard) => MessageFactory.attachment(CardFactory.adaptiveCard(card));

/**
 * Replies on the card the activity points at: update it in place for everyone (refreshing to their own view
 * for the person acting) and keep the presser's view; tell the person why nothing was recorded (buttons only).
 */
function replies(
  { deps }: ReviewCards,
  context: TurnContext,
  cardId: string,
  tell: ((text: string) => Promise<void>) | undefined,
): { cardReplies: CardReplies; seen: { card?: ReviewAdaptiveCard } } {
  const seen: { card?: ReviewAdaptiveCard } = {};
  const viewer = `teams:${reviewerId(context)}`;
  const view = { refreshFor: [context.activity.from.id], publicUrl: deps.publicUrl };
  const cardReplies: CardReplies = {
    async update(item, tasks, labels) {
      const model = reviewModel(item, tasks, labels);
      seen.card = renderTeamsReviewCard(model, tasks, { ...view, viewer });
      await context.updateActivity({ ...attachment(renderTeamsReviewCard(model, tasks, view)), id: cardId });
    },
    tell,
  };
  return { cardReplies, seen };
}

/** A label given by a press on the card `cardId` (a button, a menu, an old Action.Submit). */
function label(
  { desk }: ReviewCards,
  context: TurnContext,
  cardId: string,
  choice: Choice & { sampleId: number; eventId: string | undefined },
  r: CardReplies,
): Promise<CardLabelOutcome> {
  return desk.label(
    { postRef: postRef(context.activity.conversation.id, cardId), user: reviewerId(context), action: 'set', via: 'button', ...choice },
    r,
  );
}

/** An Action.Execute on a review card: a refresh (the card as this person sees it), or labels; null when not ours. */
async function answerCardAction(cards: ReviewCards, context: TurnContext, action: CardAction): Promise<AdaptiveCardInvokeResponse | null> {
  const { deps } = cards;
  if (action.verb === REVIEW_VERBS.refresh) {
    const parsed = refreshData.safeParse(action.data);
    if (!parsed.success) return null;
    const card = renderTeamsReviewCard(parsed.data.model as TeamsReviewModel, deps.review.tasks, {
      viewer: `teams:${reviewerId(context)}`,
      refreshFor: [context.activity.from.id],
      publicUrl: deps.publicUrl,
    });
    return cardResponse(card);
  }
  const pressed = choicesOf(
    action,
    deps.review.tasks.map((t) => t.id),
  );
  if (!pressed) return null;
  return labelByPress(cards, context, pressed);
}

/** Labels chosen on a card (a button, or the menus' "Save"): the card as the presser now sees it, or why nothing changed. */
async function labelByPress(
  cards: ReviewCards,
  context: TurnContext,
  { sampleId, choices }: { sampleId: number; choices: Choice[] },
): Promise<AdaptiveCardInvokeResponse> {
  const a = context.activity;
  if (!a.replyToId) return message(NOTES.not_a_card as string);
  if (choices.length === 0) return message('Choose a label first.');
  const notes: string[] = [];
  const { cardReplies, seen } = replies(cards, context, a.replyToId, async (text) => void notes.push(text));
  const outcomes: CardLabelOutcome[] = [];
  for (const c of choices) {
    const eventId = a.id ? `teams:${a.id}:${c.task}` : undefined;
    outcomes.push(await label(cards, context, a.replyToId, { ...c, sampleId, eventId }, cardReplies));
  }
  if (seen.card) return cardResponse(seen.card);
  if (notes.length > 0) return message(notes[0] as string);
  if (outcomes.every((o) => o === 'unchanged')) {
    const task = cards.deps.review.tasks.find((t) => t.id === choices[0]?.task);
    return message(`Already recorded${task && choices.length === 1 ? `: ${outcomeLabel(task, choices[0]?.value ?? '')}` : ''}.`);
  }
  return message(NOTES[outcomes.find((o) => o !== 'unchanged') ?? 'not_a_card'] ?? 'Nothing changed.');
}

/** A press on a card posted before Universal Actions (Action.Submit with our label data); true when it was one. */
async function labelBySubmit(cards: ReviewCards, context: TurnContext): Promise<boolean> {
  const submit = context.activity.value;
  if (!isLabelSubmit(submit)) return false;
  const a = context.activity;
  if (!a.replyToId) return true;
  const tell = async (text: string) => void (await context.sendActivity(MessageFactory.text(text)));
  const { cardReplies } = replies(cards, context, a.replyToId, tell);
  const { sampleId, task, value } = submit;
  await label(cards, context, a.replyToId, { sampleId, task, value, eventId: `teams:${a.id}` }, cardReplies);
  return true;
}

/** A reaction on a review card: like/sad label the abstention task; removing it removes the label. */
async function labelByReaction(
  cards: ReviewCards,
  context: TurnContext,
  kind: 'added' | 'removed',
  reactions: readonly string[],
): Promise<void> {
  const a = context.activity;
  if (!a.replyToId) return;
  for (const reaction of reactions) {
    const mapped = TEAMS_REACTION_LABELS[reaction];
    if (!mapped) continue;
    const eventId = a.id ? `teams:${a.id}:${reaction}` : undefined;
    const change = {
      postRef: postRef(a.conversation.id, a.replyToId),
      user: reviewerId(context),
      ...mapped,
      action: kind === 'added' ? ('set' as const) : ('remove' as const),
    };
    // A reaction gets no note: a reply to every stranger's like would only be noise in the review conversation.
    await cards.desk.label({ ...change, via: 'reaction', eventId }, replies(cards, context, a.replyToId, undefined).cardReplies);
  }
}
