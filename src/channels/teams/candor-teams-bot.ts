import { ActivityHandler, MessageFactory, TurnContext } from 'botbuilder';

import { hashUserId } from '../../ask/record-interaction.js';
import type { Log } from '../../kernel/log.js';
import type { Place } from '../chat/channel-routes.js';
import { teamsInbound, type TeamsQuestion } from './teams-inbound.js';
import type { TeamsReview } from './teams-review.js';

export const WELCOME_TEXT =
  "Hi, I'm Candor. Ask me a question (in a channel, mention me first). I answer only from the knowledge base, " +
  'cite my sources, and say "I don\'t know" when the knowledge base does not hold the answer.';

export const TEAMS_HELP_TEXT = [
  'Ask me a question: write it here, or mention me in a channel (@Candor What does MediShield Life cover?).',
  'Every answer lists its sources; when the knowledge base does not hold the answer I say so, why, and what it does cover.',
  'Ask a follow-up in the same thread (or right after, in this chat) and I read it with the question before.',
  'Commands: "status" (which knowledge base answers here, its version, fact count, today\'s abstention rate), "ask QUESTION" (in a channel: I answer in our personal chat, only you see it), "review here" (this conversation\'s id, for the settings that name it), "help" (this message).',
].join('\n\n');

/** A reaction on a message, for the review feature to turn into a label later. */
export interface TeamsReaction {
  readonly kind: 'added' | 'removed';
  readonly reactions: readonly string[];
  /** The message reacted to (our reply's activity id). */
  readonly replyToId: string | undefined;
  readonly conversationId: string;
  readonly userHash: string;
}

export interface TeamsBotDeps {
  readonly log: Log;
  readonly userHashSalt: string;
  /**
   * Stores a question in the durable inbox (the answer follows from a worker); resolves once stored.
   * A rejection fails the turn, so the Bot Framework does not take the activity as delivered.
   */
  readonly enqueue: (question: TeamsQuestion, context: TurnContext, options?: { readonly privately: boolean }) => Promise<void>;
  /** Whether a channel message without a mention may be a question there (the channel map). */
  readonly unmentioned?: ((place: Place) => boolean) | undefined;
  readonly onReaction?: ((reaction: TeamsReaction) => void | Promise<void>) | undefined;
  /** The reply to "status" in a place (which KB answers there, and its status). */
  readonly statusText: (place: Place) => Promise<string>;
  /** Review cards: label buttons and reactions on them. */
  readonly review?: TeamsReview | undefined;
  /** Other card buttons (feedback, "Ask an expert", experts' answers), tried in order; each says whether a press was its own. */
  readonly submits?: readonly ((context: TurnContext) => Promise<boolean>)[] | undefined;
}

/** "review here": the ids an admin copies into the settings that name this conversation (plain text: Teams shows no Markdown code). */
function hereText(context: TurnContext): string {
  const a = context.activity;
  const conversation = a.conversation.id.split(';messageid=')[0] ?? a.conversation.id;
  const data = (a.channelData ?? {}) as { team?: { id?: string }; channel?: { id?: string } };
  return [
    `This conversation's id is ${conversation}${data.team?.id ? ` (team ${data.team.id})` : ''}.`,
    `For review cards: CANDOR_REVIEW_TEAMS_CONVERSATION=${a.serviceUrl}|${conversation}`,
    `For questions to experts: "teams": "${a.serviceUrl}|${conversation}" in the KB's CANDOR_EXPERTS entry.`,
    `To choose the knowledge base that answers here: {"teams": "${conversation}", "kb": "NAME"} in CANDOR_CHANNELS${data.team?.id ? ` (or "${data.team.id}" for the whole team)` : ''}.`,
  ].join('\n\n');
}

/** Personal chats and channel mentions → one question each into the inbox; welcome on install; reactions → hook. */
export class CandorTeamsBot extends ActivityHandler {
  constructor(private readonly deps: TeamsBotDeps) {
    super();
    this.onMessage(async (context, next) => {
      if (this.deps.review && (await this.deps.review.handleLabelSubmit(context))) return void (await next());
      for (const submit of this.deps.submits ?? []) if (await submit(context)) return void (await next());
      await this.answer(context);
      await next();
    });
    this.onMembersAdded(async (context, next) => {
      const botAdded = (context.activity.membersAdded ?? []).some((m) => m.id === context.activity.recipient.id);
      if (botAdded) await context.sendActivity(MessageFactory.text(WELCOME_TEXT));
      await next();
    });
    this.onReactionsAdded(async (context, next) => {
      await this.reaction(context, 'added', context.activity.reactionsAdded ?? []);
      await next();
    });
    this.onReactionsRemoved(async (context, next) => {
      await this.reaction(context, 'removed', context.activity.reactionsRemoved ?? []);
      await next();
    });
  }

  private async answer(context: TurnContext): Promise<void> {
    const text = (TurnContext.removeRecipientMention(context.activity) ?? context.activity.text ?? '').trim();
    const command = text.toLowerCase().replace(/\s+/g, ' ');
    const asked = /^ask\s+(\S[\s\S]*)$/i.exec(text);
    const parsed = teamsInbound(context.activity, asked ? (asked[1] as string) : text, this.deps.unmentioned);
    if (!parsed.ok) return void this.deps.log('debug', 'teams: activity ignored', { reason: parsed.ignored });
    if (command === 'help' || command === 'status' || command === 'review here' || command === 'here' || command === 'ask')
      return this.command(context, command, parsed);
    await this.deps.enqueue(parsed, context, { privately: asked !== null && !parsed.personal });
  }

  /** `help`, `status`, `review here` as whole messages are commands, not questions (nothing is recorded). */
  private async command(context: TurnContext, command: string, parsed: TeamsQuestion): Promise<void> {
    if (command === 'status') return void (await context.sendActivity(MessageFactory.text(await this.deps.statusText(parsed.place))));
    if (command === 'review here' || command === 'here') return void (await context.sendActivity(MessageFactory.text(hereText(context))));
    if (command === 'ask')
      return void (await context.sendActivity(MessageFactory.text('Ask a question after "ask": ask How do I claim for a hospital stay?')));
    await context.sendActivity(MessageFactory.text(TEAMS_HELP_TEXT));
  }

  private async reaction(context: TurnContext, kind: TeamsReaction['kind'], reactions: { type?: string }[]): Promise<void> {
    const a = context.activity;
    const event: TeamsReaction = {
      kind,
      reactions: reactions.map((r) => r.type ?? 'unknown'),
      replyToId: a.replyToId,
      conversationId: a.conversation.id,
      userHash: hashUserId(`${a.conversation.tenantId ?? '-'}:${a.from.aadObjectId ?? a.from.id}`, this.deps.userHashSalt),
    };
    this.deps.log('info', 'teams: reaction', { kind, reactions: event.reactions, replyToId: event.replyToId });
    if (this.deps.review) await this.deps.review.handleReviewReaction(context, kind, event.reactions);
    await this.deps.onReaction?.(event);
  }

  /** Action.Execute on a review card (a label, "Save", a refresh): answered with the card as the presser now sees it. */
  protected override async onAdaptiveCardInvoke(
    context: TurnContext,
    invokeValue: Parameters<ActivityHandler['onAdaptiveCardInvoke']>[1],
  ): ReturnType<ActivityHandler['onAdaptiveCardInvoke']> {
    const handled = await this.deps.review?.handleCardAction(context, invokeValue.action);
    return handled ?? super.onAdaptiveCardInvoke(context, invokeValue);
  }
}
