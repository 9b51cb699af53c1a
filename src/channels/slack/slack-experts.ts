import type { App as BoltApp, SlackViewMiddlewareArgs, webApi } from '@slack/bolt';
import { z } from 'zod';

import type { CloseOutcome, ExpertCard, ExpertDesk, ExpertSurface, Person } from '../../gaps/expert-types.js';
import { checkedAnswerText, MAX_EXPERT_ANSWER_CHARS } from '../../kb/expert-answer-text.js';
import { CandorError, describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { EXPERT_ACTION, renderExpertPost } from './render-expert-post.js';
import { escapeMrkdwn } from './render-slack-reply.js';
import { ephemeralNotes, readButtonPress, readModalSubmission, type ButtonPress } from './slack-interaction.js';
import type { SlackGroupMembership } from './slack-user-groups.js';

export interface SlackExpertsDeps {
  readonly experts: ExpertDesk;
  readonly log: Log;
  /** Membership of the user groups CANDOR_EXPERTS names ("slack:group:S…"). */
  readonly isGroupMember: SlackGroupMembership;
}

/** The modal an expert writes their answer in. */
export const EXPERT_ANSWER_VIEW = 'candor_expert_answer';
/** Slack's cap on a plain_text_input (the desk allows more, but Slack cannot send it). */
const MAX_INPUT_CHARS = Math.min(3000, MAX_EXPERT_ANSWER_CHARS);

const PostRef = /^slack:([^|]+)\|(.+)$/;
const Target = z.object({ platform: z.literal('slack'), channel: z.string().min(1), threadTs: z.string().nullable().optional() });
const AnswerMetadata = z.object({ gap: z.string(), channel: z.string() });

const NOT_AN_EXPERT = "Only this knowledge base's experts (CANDOR_EXPERTS) can answer or close its questions; nothing was recorded.";

/**
 * The experts' side in Slack: questions are posted to a KB's experts
 * channel; "Answer" opens a modal whose text becomes a fact of the KB, and
 * "Not for the KB" closes the question. Only the KB's experts may do either
 * (others get an ephemeral note, nothing is stored); buttons carry a signed
 * gap value, and a value we did not sign is ignored. Askers are told in the
 * thread where they asked. What any of it means is the desk's business.
 */
export function registerSlackExperts(bolt: BoltApp, client: webApi.WebClient, deps: SlackExpertsDeps): ExpertSurface {
  const surface = slackExpertSurface(client, deps.isGroupMember);
  deps.experts.attach(surface);
  const expertActions: ExpertActions = { experts: deps.experts, client, log: deps.log, note: ephemeralNotes(client, deps.log) };
  bolt.action(EXPERT_ACTION.answer, async ({ ack, body }) => {
    await ack();
    await openAnswerModal(expertActions, body);
  });
  bolt.view(EXPERT_ANSWER_VIEW, ({ ack, body }) => storeExpertAnswer(expertActions, ack, body));
  bolt.action(EXPERT_ACTION.dismiss, async ({ ack, body }) => {
    await ack();
    await dismissQuestion(expertActions, body);
  });
  return surface;
}

/** Where the desk posts, updates and tells in Slack: the KB's experts channel, and the askers' threads. */
function slackExpertSurface(client: webApi.WebClient, isGroupMember: SlackGroupMembership): ExpertSurface {
  return {
    platform: 'slack',
    async post(entry, card) {
      if (!entry.slack) return null;
      const post = renderExpertPost(card);
      const result = await client.chat.postMessage({
        channel: entry.slack,
        text: post.text,
        blocks: post.blocks as never,
        unfurl_links: false,
        unfurl_media: false,
      });
      return `slack:${entry.slack}|${String(result.ts)}`;
    },
    async update(ref, card) {
      const match = PostRef.exec(ref);
      if (!match) return;
      const post = renderExpertPost(card);
      await client.chat.update({ channel: match[1] as string, ts: match[2] as string, text: post.text, blocks: post.blocks as never });
    },
    async tell(target, text) {
      const where = Target.parse(target);
      await client.chat.postMessage({
        channel: where.channel,
        ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
        text: escapeMrkdwn(text),
        unfurl_links: false,
        unfurl_media: false,
      });
    },
    isGroupMember,
  };
}

/** What the experts' buttons and modal act with. */
interface ExpertActions {
  readonly experts: ExpertDesk;
  readonly client: webApi.WebClient;
  readonly log: Log;
  readonly note: ReturnType<typeof ephemeralNotes>;
}

/** The gap a press names and who pressed, or null (logged) when the value is not one we signed. */
function gapOf({ experts, log }: ExpertActions, press: ButtonPress): { gapId: number; person: Person } | null {
  const gapId = experts.readGapAction(press.value);
  if (gapId === null) {
    log('warn', "slack: an experts' button carried a value we did not sign; ignored", { channel: press.channel });
    return null;
  }
  return { gapId, person: { platform: 'slack', user: press.user, name: press.name } };
}

/** What an expert is told when the desk did not take their answer or dismissal; null when it did. */
function closedNote(outcome: CloseOutcome): string | null {
  switch (outcome.kind) {
    case 'not_an_expert':
      return NOT_AN_EXPERT;
    case 'already_closed':
      return outcome.state === 'answered'
        ? `${outcome.by ?? 'Another expert'} has already answered this question.`
        : `${outcome.by ?? 'Another expert'} has already marked this question as not for the knowledge base.`;
    case 'no_gap':
      return 'This question is no longer in the store.';
    default:
      return null;
  }
}

/** "Answer": the modal to write the answer in, for an expert of the question's KB while the question is open. */
async function openAnswerModal(actions: ExpertActions, body: unknown): Promise<void> {
  const { experts, client, log, note } = actions;
  const press = readButtonPress(body);
  const pressed = press && gapOf(actions, press);
  if (!press || !pressed) return;
  const where = { channel: press.channel, user: press.user };
  if (!(await experts.isExpert(pressed.gapId, pressed.person))) return note(where, NOT_AN_EXPERT);
  const card = await experts.card(pressed.gapId);
  if (!card) return note(where, 'This question is no longer in the store.');
  if (card.state === 'answered' || card.state === 'out_of_scope')
    return note(where, closedNote({ kind: 'already_closed', gapId: card.gapId, state: card.state, by: card.closedBy }) ?? '');
  await client.views
    .open({ trigger_id: press.triggerId, view: answerModal(card, { gap: press.value, channel: press.channel }) })
    .catch((error: unknown) => log('warn', 'slack: could not open the answer modal', { error: describeError(error) }));
}

/** The modal an expert writes the answer in; its metadata names the gap (the signed value) and the experts channel. */
function answerModal(card: ExpertCard, metadata: { gap: string | undefined; channel: string }): webApi.ViewsOpenArguments['view'] {
  return {
    type: 'modal',
    callback_id: EXPERT_ANSWER_VIEW,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text', text: 'Answer for the KB' },
    submit: { type: 'plain_text', text: 'Add to the KB' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*Question*\n${escapeMrkdwn(card.question)}`.slice(0, 3000) } },
      {
        type: 'input',
        block_id: 'answer',
        label: { type: 'plain_text', text: 'Your answer' },
        hint: {
          type: 'plain_text',
          text: `Becomes a fact of the ${card.kb} knowledge base, cited as answered by you; the people who asked are told.`.slice(0, 2000),
        },
        element: { type: 'plain_text_input', action_id: 'text', multiline: true, max_length: MAX_INPUT_CHARS },
      },
    ],
  };
}

/** The answer modal's submission: checked (what to fix is shown in the modal), then given to the desk. */
async function storeExpertAnswer(actions: ExpertActions, ack: SlackViewMiddlewareArgs['ack'], body: unknown): Promise<void> {
  const { experts, log, note } = actions;
  const submission = readModalSubmission(body);
  const meta = AnswerMetadata.safeParse(submission?.metadata);
  const gapId = meta.success ? experts.readGapAction(meta.data.gap) : null;
  if (!submission || !meta.success || gapId === null) {
    await ack();
    return void log('warn', 'slack: an answer modal carried a value we did not sign; ignored', {});
  }
  const text = submission.input('answer', 'text')?.value;
  // Checked before the acknowledgement, so the expert sees what to fix in the modal itself.
  try {
    checkedAnswerText(typeof text === 'string' ? text : '');
  } catch (error) {
    if (error instanceof CandorError && error.code === 'input_invalid')
      return void (await ack({ response_action: 'errors', errors: { answer: error.message } }));
    throw error;
  }
  await ack();
  const where = { channel: meta.data.channel, user: submission.user };
  const expert: Person = { platform: 'slack', user: submission.user, name: submission.name };
  try {
    const outcome = await experts.answer({ gapId, expert, text: String(text) });
    const said = closedNote(outcome);
    if (said) await note(where, said);
  } catch (error) {
    log('error', 'slack: could not store an expert answer', { gapId, error: describeError(error) });
    await note(where, "Sorry — your answer couldn't be saved just now. Please try again in a minute.");
  }
}

/** "Not for the KB": the desk closes the question (and tells its askers). */
async function dismissQuestion(actions: ExpertActions, body: unknown): Promise<void> {
  const { experts, log, note } = actions;
  const press = readButtonPress(body);
  const pressed = press && gapOf(actions, press);
  if (!press || !pressed) return;
  try {
    const said = closedNote(await experts.dismiss({ gapId: pressed.gapId, expert: pressed.person }));
    if (said) await note({ channel: press.channel, user: press.user }, said);
  } catch (error) {
    log('error', 'slack: could not close a question', { gapId: pressed.gapId, error: describeError(error) });
  }
}
