import { CardFactory, MessageFactory, type CloudAdapter, type ConversationReference, type TurnContext } from 'botbuilder';
import { z } from 'zod';

import type { CloseOutcome, ExpertCard, ExpertDesk, ExpertSurface, Person } from '../../gaps/expert-types.js';
import { CandorError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { sendNew, sendReply, updateIn } from './proactive-send.js';
import { ANSWER_INPUT, ExpertSubmit, renderTeamsExpertCard } from './render-teams-expert-card.js';
import { teamsUser } from './teams-reply-actions.js';

export interface TeamsExperts {
  /** Posting to experts, updating their posts and telling askers, for the experts desk (attached at start). */
  readonly surface: ExpertSurface;
  /** An "Answer" / "Not for the KB" press on an experts' post; true when it was one. */
  handleSubmit(context: TurnContext): Promise<boolean>;
}

const NOT_OURS = 'That button is not one I can act on (it may come from another deployment of Candor), so nothing was recorded.';
const ONLY_EXPERTS =
  "Thanks — but only the knowledge base's experts can answer or close its questions, so nothing was recorded. Ask whoever runs Candor to add you to CANDOR_EXPERTS.";
const NEEDS_TEXT = 'Write your answer in the box on the card first, then press "Answer".';

/** What the Teams surface stored as a target with askExpert (teams-reply-actions.ts). */
const Target = z.object({
  platform: z.literal('teams'),
  reference: z.record(z.string(), z.unknown()),
  replyToId: z.string().optional(),
});

const cardActivity = (card: ExpertCard) => MessageFactory.attachment(CardFactory.adaptiveCard(renderTeamsExpertCard(card)));
const say = async (context: TurnContext, text: string) => void (await context.sendActivity(MessageFactory.text(text)));

/** "teams:<conversation id>|<activity id>": an experts' post, as the desk stores it. */
const postRef = (conversationId: string, activityId: string) => `teams:${conversationId}|${activityId}`;

/**
 * The experts' side in Teams: questions posted as Adaptive Cards into each
 * KB's experts conversation (CANDOR_EXPERTS `teams`), their buttons, and the
 * notices to askers. Who may answer, and what an answer does, is the desk's.
 */
export function teamsExperts(adapter: CloudAdapter, appId: string, deps: { experts: ExpertDesk; log: Log }): TeamsExperts {
  const surface: ExpertSurface = {
    platform: 'teams',
    async post(entry, card) {
      if (!entry.teams) return null;
      const id = await sendNew(adapter, appId, entry.teams, cardActivity(card));
      return postRef(entry.teams.split('|')[1] ?? '', id);
    },
    async update(ref, card) {
      const conversation = deps.experts.entry(card.kb)?.teams;
      const at = ref.lastIndexOf('|');
      if (!conversation || !ref.startsWith('teams:') || at < 0)
        return deps.log('warn', "teams: an experts' post cannot be updated: its KB names no Teams conversation", { ref, kb: card.kb });
      const serviceUrl = conversation.split('|')[0] ?? '';
      await updateIn(adapter, appId, `${serviceUrl}|${ref.slice('teams:'.length, at)}`, ref.slice(at + 1), cardActivity(card));
    },
    async tell(target, text) {
      const t = Target.parse(target);
      await sendReply(adapter, appId, t.reference as Partial<ConversationReference>, t.replyToId, MessageFactory.text(text));
    },
  };

  async function close(context: TurnContext, submit: z.infer<typeof ExpertSubmit>): Promise<void> {
    const gapId = deps.experts.readGapAction(submit.value);
    if (gapId === null) return say(context, NOT_OURS);
    const expert: Person = { platform: 'teams', user: teamsUser(context), name: context.activity.from.name };
    if (!(await deps.experts.isExpert(gapId, expert))) return say(context, ONLY_EXPERTS);
    if (submit.candor === 'expert_dismiss') return say(context, closeText(await deps.experts.dismiss({ gapId, expert })));
    const text = submit[ANSWER_INPUT]?.trim() ?? '';
    if (text === '') return say(context, NEEDS_TEXT);
    try {
      await say(context, closeText(await deps.experts.answer({ gapId, expert, text })));
    } catch (error) {
      // An answer the desk refuses (too long): the expert is told why, in the desk's words.
      if (error instanceof CandorError && error.status < 500) return say(context, error.message);
      throw error;
    }
  }

  return {
    surface,
    async handleSubmit(context) {
      const value = context.activity.value as { candor?: unknown } | null | undefined;
      if (value?.candor !== 'expert_answer' && value?.candor !== 'expert_dismiss') return false;
      const submit = ExpertSubmit.safeParse(value);
      await (submit.success ? close(context, submit.data) : say(context, NOT_OURS));
      return true;
    },
  };
}

/** What an expert is told after "Answer" or "Not for the KB". */
export function closeText(outcome: CloseOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return `Thank you: your answer is now part of the knowledge base (fact ${outcome.factId}, version ${outcome.version}), and the people who asked are being told.`;
    case 'dismissed':
      return 'Marked as not for the knowledge base; the people who asked are being told.';
    case 'already_closed':
      return outcome.state === 'answered'
        ? `This question was already answered${outcome.by ? ` by ${outcome.by}` : ''}; nothing was changed.`
        : `This question was already marked not for the knowledge base${outcome.by ? ` by ${outcome.by}` : ''}; nothing was changed.`;
    case 'not_an_expert':
      return ONLY_EXPERTS;
    case 'no_gap':
      return 'That question is no longer there, so nothing was recorded.';
  }
}
