import { ActivityHandler, MessageFactory, TurnContext } from 'botbuilder';

import { hashUserId } from '../../ask/record-interaction.js';
import type { Log } from '../../log.js';
import { teamsInbound, type TeamsInbound } from './teams-inbound.js';
import type { TeamsReview } from './teams-review.js';

export const WELCOME_TEXT =
  "Hi, I'm Candor. Ask me a question (in a channel, mention me first). I answer only from the knowledge base, " +
  'cite my sources, and say "I don\'t know" when the knowledge base does not hold the answer.';

export const TEAMS_HELP_TEXT = [
  'Ask me a question: write it here, or mention me in a channel (@Candor What does MediShield Life cover?).',
  'Every answer lists its sources; when the knowledge base does not hold the answer I say so, why, and what it does cover.',
  'Commands: "status" (knowledge base version, fact count, today\'s abstention rate), "help" (this message).',
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
  readonly enqueue: (question: Extract<TeamsInbound, { ok: true }>, context: TurnContext) => Promise<void>;
  readonly onReaction?: ((reaction: TeamsReaction) => void | Promise<void>) | undefined;
  /** The reply to "status" (the shared status reply, within its budget). */
  readonly statusText: () => Promise<string>;
  /** Review cards: label buttons and reactions on them. */
  readonly review?: TeamsReview | undefined;
  /** Other card buttons (feedback, "Ask an expert", experts' answers), tried in order; each says whether a press was its own. */
  readonly submits?: readonly ((context: TurnContext) => Promise<boolean>)[] | undefined;
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
    const text = TurnContext.removeRecipientMention(context.activity) ?? context.activity.text ?? '';
    const command = text.trim().toLowerCase();
    if (command === 'help' || command === 'status') return this.command(context, command);
    const parsed = teamsInbound(context.activity, text);
    if (!parsed.ok) return void this.deps.log('debug', 'teams: activity ignored', { reason: parsed.ignored });
    await this.deps.enqueue(parsed, context);
  }

  /** `help` and `status` as whole messages are commands, not questions (nothing is recorded). */
  private async command(context: TurnContext, command: 'help' | 'status'): Promise<void> {
    if (command === 'help') return void (await context.sendActivity(MessageFactory.text(TEAMS_HELP_TEXT)));
    await context.sendActivity(MessageFactory.text(await this.deps.statusText()));
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
}
