import { ActivityHandler, ActivityTypes, CardFactory, MessageFactory, TurnContext } from 'botbuilder';

import { hashUserId } from '../../ask/record-interaction.js';
import type { Log } from '../../log.js';
import { answerOnce, type AnswerOnceDeps, type Reply } from '../slack/answer-once.js';
import { formatStatusReport, statusReport } from '../slack/status-report.js';
import { renderTeamsCard } from './render-teams-card.js';
import { teamsInbound } from './teams-inbound.js';
import { handleLabelSubmit, handleReviewReaction, type TeamsReviewDeps } from './teams-review.js';

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

export interface TeamsBotDeps extends AnswerOnceDeps {
  /** Send a typing indicator when a reply takes longer than this. @default 1500 */
  readonly typingDelayMs: number;
  readonly onReaction?: ((reaction: TeamsReaction) => void | Promise<void>) | undefined;
  /** Review cards: label buttons and reactions on them. */
  readonly review?: TeamsReviewDeps | undefined;
}

/** Personal chats and channel mentions → one ask each; welcome on install; reactions → hook. */
export class CandorTeamsBot extends ActivityHandler {
  constructor(private readonly deps: TeamsBotDeps) {
    super();
    this.onMessage(async (context, next) => {
      if (this.deps.review && (await handleLabelSubmit(context, this.deps.review))) return void (await next());
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
    await answerOnce(this.deps, parsed.inbound, {
      attributes: { 'candor.teams.personal': parsed.personal },
      working: () => typingIndicator(context, this.deps.typingDelayMs, this.deps.log),
      deliver: async (reply) => {
        await context.sendActivity(toActivity(reply));
      },
    });
  }

  /** `help` and `status` as whole messages are commands, not questions (nothing is recorded). */
  private async command(context: TurnContext, command: 'help' | 'status'): Promise<void> {
    if (command === 'help') return void (await context.sendActivity(MessageFactory.text(TEAMS_HELP_TEXT)));
    let text: string;
    try {
      text = formatStatusReport(await statusReport(this.deps.db, this.deps.kb ?? 'default'));
    } catch (error) {
      this.deps.log('error', 'teams: status failed', { error: (error as Error).message });
      text = "I can't read my status right now. Please try again later.";
    }
    await context.sendActivity(MessageFactory.text(text));
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
    if (this.deps.review) await handleReviewReaction(context, this.deps.review, kind, event.reactions);
    await this.deps.onReaction?.(event);
  }
}

function toActivity(reply: Reply) {
  if (reply.kind === 'problem') return MessageFactory.text(reply.message);
  return MessageFactory.attachment(CardFactory.adaptiveCard(renderTeamsCard(reply)));
}

function typingIndicator(context: TurnContext, delayMs: number, log: Log): () => Promise<void> {
  const timer = setTimeout(() => {
    context.sendActivity({ type: ActivityTypes.Typing }).catch((error: unknown) => {
      log('debug', 'teams: could not send typing', { error: (error as Error).message });
    });
  }, delayMs);
  return async () => clearTimeout(timer);
}
