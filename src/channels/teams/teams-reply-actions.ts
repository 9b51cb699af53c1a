import { CardFactory, MessageFactory, type Activity, type TurnContext } from 'botbuilder';
import type { z } from 'zod';

import type { Decision } from '../../ask/decision.js';
import type { FeedbackService } from '../../feedback/feedback-service.js';
import { shouldAutoAsk } from '../../gaps/auto-ask.js';
import type { AskExpertOutcome, ExpertDesk } from '../../gaps/expert-types.js';
import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import type { Reply } from '../chat/chat-message.js';
import { cardCopies } from './card-copy.js';
import { replyCard, replyContent, type AdaptiveCard } from './render-teams-card.js';
import { AskExpertSubmit, choiceText, FeedbackSubmit } from './reply-card-actions.js';
import { storedReference } from './teams-inbox.js';

export interface TeamsReplyActionsDeps {
  readonly feedback: FeedbackService;
  readonly experts: ExpertDesk;
  /** The deployment's secret (CANDOR_USER_HASH_SALT): seals the copies cards carry. */
  readonly secret: string;
  readonly log: Log;
}

/** Where an asker hears what became of their question: what the Teams expert surface's `tell` reads back. */
export interface TeamsAskerTarget {
  readonly platform: 'teams';
  readonly reference: Readonly<Record<string, unknown>>;
  /** The activity the notice replies to (the reply card, or the question). */
  readonly replyToId?: string | undefined;
}

/** What askers do on a reply card in Teams: 👍/👎 and "Ask an expert". */
export interface TeamsReplyActions {
  /** A reply as a Teams activity: the card with its buttons (a stored decision), or a plain message. */
  activity(reply: Reply): Partial<Activity>;
  /** A press on a reply card's button; true when it was one (handled, or refused as forged). */
  handleSubmit(context: TurnContext): Promise<boolean>;
  /** Routes a delivered refusal to the KB's experts when the KB asks for that (autoAsk). Never throws. */
  autoAsk(decision: Decision, target: TeamsAskerTarget): Promise<void>;
}

const NOT_OURS = 'That button is not one I can act on (it may come from another deployment of Candor), so nothing was recorded.';
const GONE = "I can't find that reply any more, so nothing was recorded.";

/** A Teams user as feedback and expert requests know them: their Azure AD object id when Teams sends it. */
export const teamsUser = (context: TurnContext) => context.activity.from.aadObjectId ?? context.activity.from.id;

const cardActivity = (card: AdaptiveCard) => MessageFactory.attachment(CardFactory.adaptiveCard(card));
const say = async (context: TurnContext, text: string) => void (await context.sendActivity(MessageFactory.text(text)));

/** Feedback and "Ask an expert" go to the shared services; this file only speaks Bot Framework. */
export function teamsReplyActions(deps: TeamsReplyActionsDeps): TeamsReplyActions {
  const actions: ReplyCardActions = { deps, copies: cardCopies(deps.secret) };
  return {
    activity: (reply) => replyActivity(actions, reply),

    async handleSubmit(context) {
      const value: unknown = context.activity.value;
      const candor = (value as { candor?: unknown } | null)?.candor;
      if (candor === 'feedback') {
        const submit = FeedbackSubmit.safeParse(value);
        await (submit.success ? feedback(actions, context, submit.data) : say(context, NOT_OURS));
        return true;
      }
      if (candor === 'ask_expert') {
        const submit = AskExpertSubmit.safeParse(value);
        await (submit.success ? askExpert(deps, context, submit.data.value) : say(context, NOT_OURS));
        return true;
      }
      return false;
    },

    async autoAsk(decision, target) {
      if (!shouldAutoAsk(decision, deps.experts.entry(decision.kb.name))) return;
      try {
        const outcome = await deps.experts.askExpert({
          interactionId: decision.interactionId,
          asker: 'auto',
          target: JSON.parse(JSON.stringify(target)) as Record<string, unknown>,
          via: 'auto',
        });
        deps.log('info', 'teams: refusal routed to experts', { interactionId: decision.interactionId, outcome: outcome.kind });
      } catch (error) {
        deps.log('error', 'teams: could not route a refusal to experts', {
          interactionId: decision.interactionId,
          error: describeError(error),
        });
      }
    },
  };
}

/** What the reply card's buttons act with: the services, and the sealed copies of answers that cards carry. */
interface ReplyCardActions {
  readonly deps: TeamsReplyActionsDeps;
  readonly copies: ReturnType<typeof cardCopies>;
}

const hasExperts = (deps: TeamsReplyActionsDeps, kb: string) => deps.experts.entry(kb) !== undefined;

/** A reply as a Teams activity: a stored decision's card with its buttons (and an answer's sealed copy), or a plain message. */
function replyActivity({ deps, copies }: ReplyCardActions, reply: Reply): Partial<Activity> {
  if (reply.kind === 'problem') return MessageFactory.text(reply.message);
  const d = reply.decision;
  const content = replyContent(d);
  if (d.interactionId === null) return cardActivity(replyCard(content, d.decision));
  const value = deps.experts.interactionAction(d.interactionId);
  const copy = d.decision === 'answer' ? copies.seal(d.interactionId, { kb: d.kb.name, body: content }) : undefined;
  return cardActivity(replyCard(content, d.decision, { value, experts: hasExperts(deps, d.kb.name), copy }));
}

/** 👍/👎 on a reply card: stored once per press; the card shows the choice (from its sealed copy) or the asker is told. */
async function feedback({ deps, copies }: ReplyCardActions, context: TurnContext, submit: z.infer<typeof FeedbackSubmit>): Promise<void> {
  const a = context.activity;
  const interactionId = deps.experts.readInteractionAction(submit.value);
  if (interactionId === null) return say(context, NOT_OURS);
  const notHelpful = submit.kind === 'not_helpful';
  const reason = notHelpful ? submit.reason : undefined;
  const outcome = await deps.feedback.record({
    interactionId,
    platform: 'teams',
    user: teamsUser(context),
    kind: submit.kind,
    reason,
    comment: notHelpful ? submit.comment : undefined,
    // Teams activity ids are unique within a conversation (channel messages' are times in ms), not across them.
    eventId: a.id ? `teams:${a.conversation.id}|${a.id}` : undefined,
  });
  if (outcome === 'no_interaction') return say(context, GONE);
  const copy = copies.open(interactionId, submit.candorCard);
  if (!copy || !a.replyToId) {
    // No copy to show it on (a card too long to carry one, a client that sent none, a tampered one): the choice is told.
    if (outcome === 'recorded') await say(context, `Thank you: your feedback (${choiceText(submit.kind, reason)}) is recorded.`);
    return;
  }
  // Also on a redelivered press: the update is the same, and the first one may not have gone through.
  const chosen = { kind: submit.kind, reason };
  const card = replyCard(copy.body, 'answer', { value: submit.value, experts: hasExperts(deps, copy.kb), copy: submit.candorCard, chosen });
  await context.updateActivity({ ...cardActivity(card), id: a.replyToId });
}

/** "Ask an expert" on a reply card: the desk hands the question to the KB's experts; the asker is told what became of it. */
async function askExpert(deps: TeamsReplyActionsDeps, context: TurnContext, value: string): Promise<void> {
  const interactionId = deps.experts.readInteractionAction(value);
  if (interactionId === null) return say(context, NOT_OURS);
  const a = context.activity;
  const target: TeamsAskerTarget = { platform: 'teams', reference: storedReference(a), replyToId: a.replyToId };
  const outcome = await deps.experts.askExpert({
    interactionId,
    asker: deps.feedback.asker('teams', teamsUser(context)),
    target: JSON.parse(JSON.stringify(target)) as Record<string, unknown>,
    via: 'button',
  });
  await say(context, askOutcomeText(outcome));
}

/** What the asker is told after pressing "Ask an expert". */
export function askOutcomeText(outcome: AskExpertOutcome): string {
  switch (outcome.kind) {
    case 'asked':
      return outcome.requests > 1
        ? `I've passed your question on to the knowledge base's experts (${outcome.requests} people have asked it). I'll tell you here when one of them answers.`
        : "I've asked the knowledge base's experts. I'll tell you here when one of them answers.";
    case 'already_asked':
      return "You've already asked the experts about this. I'll tell you here when one of them answers.";
    case 'answered':
      return `An expert has already answered this: ${outcome.text}`;
    case 'out_of_scope':
      return "The experts have marked this question as outside what this knowledge base covers, so I can't answer it here.";
    case 'no_experts':
      return 'This knowledge base has no experts to ask.';
    case 'no_interaction':
      return "I can't find that reply any more, so I can't ask the experts about it.";
  }
}
