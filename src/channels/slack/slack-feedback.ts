import type { App as BoltApp, webApi } from '@slack/bolt';
import { z } from 'zod';

import { FEEDBACK_REASON_TEXT, FEEDBACK_REASONS, MAX_FEEDBACK_COMMENT, type FeedbackKind } from '../../feedback/asker-feedback.js';
import type { FeedbackService } from '../../feedback/feedback-service.js';
import { shouldAutoAsk } from '../../gaps/auto-ask.js';
import type { AskExpertOutcome, ExpertDesk } from '../../gaps/expert-types.js';
import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import type { Reply } from '../chat/chat-message.js';
import { readReplyActions, REPLY_ACTION, withReplyActions, type ReplyActionsState, type ReplyButtons } from './reply-actions.js';
import { ephemeralNotes, readButtonPress, readModalSubmission, type ButtonPress } from './slack-interaction.js';
import { describeSlackError } from './working-reaction.js';

export interface SlackFeedbackDeps {
  readonly feedback: FeedbackService;
  readonly experts: ExpertDesk;
  readonly log: Log;
}

/** The modal a 👎 opens: why the reply did not help. */
export const NOT_HELPFUL_VIEW = 'candor_not_helpful_reason';

const ReasonMetadata = z.object({ action: z.string(), channel: z.string(), ts: z.string() });

/**
 * Askers' buttons on replies: 👍/👎 (a 👎 opens a modal for the reason) are
 * stored as feedback, once per press however often Slack delivers it;
 * "Ask an expert" hands the question to the KB's experts. Every button names
 * its reply with a signed value: a value we did not sign is ignored and
 * nothing is stored. The message is updated to show what was chosen.
 */
export function registerSlackFeedback(bolt: BoltApp, client: webApi.WebClient, deps: SlackFeedbackDeps): void {
  const actions: ReplyButtonActions = { ...deps, client, tell: ephemeralNotes(client, deps.log) };
  bolt.action(REPLY_ACTION.helpful, ({ ack, body }) => recordFeedback(actions, 'helpful', ack, body));
  bolt.action(REPLY_ACTION.notHelpful, ({ ack, body }) => recordFeedback(actions, 'not_helpful', ack, body));
  bolt.view(NOT_HELPFUL_VIEW, async ({ ack, body }) => {
    await ack();
    await recordNotHelpfulReason(actions, body);
  });
  bolt.action(REPLY_ACTION.askExpert, async ({ ack, body }) => {
    await ack();
    await askTheExperts(actions, body);
  });
}

/** What the reply buttons' handlers act with. */
interface ReplyButtonActions extends SlackFeedbackDeps {
  readonly client: webApi.WebClient;
  readonly tell: ReturnType<typeof ephemeralNotes>;
}

/** The interaction a press names, or null (logged) when its value is not one we signed. */
function interactionOf({ experts, log }: ReplyButtonActions, press: ButtonPress): number | null {
  const id = experts.readInteractionAction(press.value);
  if (id === null) log('warn', 'slack: a reply button carried a value we did not sign; ignored', { channel: press.channel });
  return id;
}

/** Re-draws the reply's buttons to show what was chosen, with a note under them. */
async function redraw({ client, log }: ReplyButtonActions, press: ButtonPress, change: Partial<ReplyActionsState>, note: string) {
  const state = readReplyActions(press.message.blocks);
  if (!state || press.value === undefined) return;
  const blocks = withReplyActions(press.message.blocks, press.value, { ...state, ...change }, note);
  await client.chat
    .update({ channel: press.channel, ts: press.message.ts, text: press.message.text, blocks: blocks as never })
    .catch((error: unknown) => log('warn', 'slack: could not update the buttons of a reply', { code: describeSlackError(error) }));
}

/** 👍 or 👎: stored once per press; a 👎 first opens the modal that asks why. */
async function recordFeedback(actions: ReplyButtonActions, kind: FeedbackKind, ack: () => Promise<void>, body: unknown) {
  const { client, feedback, log } = actions;
  await ack();
  const press = readButtonPress(body);
  const interactionId = press && interactionOf(actions, press);
  if (!press || interactionId === null) return;
  // A trigger id lives three seconds: the modal opens before anything else is done.
  if (kind === 'not_helpful') await openReasonModal(client, press, log);
  const outcome = await feedback.record({
    interactionId,
    platform: 'slack',
    user: press.user,
    kind,
    eventId: `slack:${press.triggerId}`,
  });
  if (outcome === 'no_interaction') return void log('warn', 'slack: feedback on a reply that is not stored', { interactionId });
  if (outcome === 'duplicate') return; // a redelivery: the message already shows it
  await redraw(actions, press, { chosen: kind }, kind === 'helpful' ? 'Thanks — marked helpful.' : 'Thanks — marked not helpful.');
}

/** The 👎 modal's submission: the reason and comment, stored with the feedback. */
async function recordNotHelpfulReason({ experts, feedback, log }: ReplyButtonActions, body: unknown): Promise<void> {
  const submission = readModalSubmission(body);
  const meta = ReasonMetadata.safeParse(submission?.metadata);
  const interactionId = meta.success ? experts.readInteractionAction(meta.data.action) : null;
  if (!submission || interactionId === null)
    return void log('warn', 'slack: a feedback modal carried a value we did not sign; ignored', {});
  const reason = z.enum(FEEDBACK_REASONS).safeParse(submission.input('reason', 'reason')?.selected_option?.value);
  const comment = submission.input('comment', 'comment')?.value;
  await feedback.record({
    interactionId,
    platform: 'slack',
    user: submission.user,
    kind: 'not_helpful',
    reason: reason.success ? reason.data : undefined,
    comment: typeof comment === 'string' ? comment : undefined,
    eventId: `slack:view:${submission.viewId}`,
  });
}

/** "Ask an expert": the desk hands the question to the KB's experts; the asker is told what became of it. */
async function askTheExperts(actions: ReplyButtonActions, body: unknown): Promise<void> {
  const { experts, feedback, log, tell } = actions;
  const press = readButtonPress(body);
  const interactionId = press && interactionOf(actions, press);
  if (!press || interactionId === null) return;
  let outcome: AskExpertOutcome;
  try {
    outcome = await experts.askExpert({
      interactionId,
      asker: feedback.asker('slack', press.user),
      target: slackTarget(press.channel, press.message.threadTs),
      via: 'button',
    });
  } catch (error) {
    log('error', 'slack: could not ask the experts', { interactionId, error: describeError(error) });
    return tell(asker(press), "Sorry — I couldn't reach the experts just now. Please try again in a minute.");
  }
  await tell(asker(press), askedNote(outcome));
  if (outcome.kind === 'asked' || outcome.kind === 'already_asked')
    await redraw(actions, press, { asked: true }, "Asked the experts — I'll post their answer in this thread.");
}

/** The buttons a delivered reply gets; none for a message about the input, or a reply that is not stored. */
export function replyButtons(experts: ExpertDesk, reply: Reply): ReplyButtons | undefined {
  if (reply.kind !== 'decision' || reply.decision.interactionId === null) return undefined;
  const { decision } = reply;
  return { action: experts.interactionAction(decision.interactionId as number), askExpert: experts.entry(decision.kb.name) !== undefined };
}

/**
 * Routes a delivered refusal to the KB's experts when the KB says so
 * (autoAsk). Idempotent (one request per interaction) and never thrown:
 * the reply is already delivered, whatever happens here.
 */
export async function autoAskExperts(
  deps: Pick<SlackFeedbackDeps, 'experts' | 'log'>,
  reply: Reply,
  where: { channel: string; threadTs: string | null | undefined },
): Promise<void> {
  if (reply.kind !== 'decision' || !shouldAutoAsk(reply.decision, deps.experts.entry(reply.decision.kb.name))) return;
  const interactionId = reply.decision.interactionId;
  try {
    const outcome = await deps.experts.askExpert({
      interactionId,
      asker: 'auto',
      target: slackTarget(where.channel, where.threadTs),
      via: 'auto',
    });
    deps.log('info', 'slack: refusal routed to the experts', { interactionId, outcome: outcome.kind });
  } catch (error) {
    deps.log('error', 'slack: could not route a refusal to the experts', { interactionId, error: describeError(error) });
  }
}

/** Where an asker is told of their question's outcome: the reply's thread (or the DM, for a reply outside a thread). */
export function slackTarget(
  channel: string,
  threadTs: string | null | undefined,
): { platform: 'slack'; channel: string; threadTs: string | null } {
  return { platform: 'slack', channel, threadTs: threadTs ?? null };
}

const asker = (press: ButtonPress) => ({ channel: press.channel, user: press.user, threadTs: press.message.threadTs });

function askedNote(outcome: AskExpertOutcome): string {
  switch (outcome.kind) {
    case 'asked':
      return "I've asked the experts of this knowledge base. When one answers, I'll tell you here.";
    case 'already_asked':
      return "The experts have already been asked about this. When one answers, I'll tell you here.";
    case 'answered':
      return `An expert has already answered this: ${outcome.text}`;
    case 'out_of_scope':
      return 'The experts have marked this question as outside what this knowledge base covers.';
    case 'no_experts':
      return 'This knowledge base has no experts to ask.';
    case 'no_interaction':
      return "I can't find that reply any more, so I can't pass it on.";
  }
}

async function openReasonModal(client: webApi.WebClient, press: ButtonPress, log: Log): Promise<void> {
  const metadata = JSON.stringify({ action: press.value, channel: press.channel, ts: press.message.ts });
  await client.views
    .open({
      trigger_id: press.triggerId,
      view: {
        type: 'modal',
        callback_id: NOT_HELPFUL_VIEW,
        private_metadata: metadata,
        title: { type: 'plain_text', text: 'Not helpful' },
        submit: { type: 'plain_text', text: 'Send' },
        close: { type: 'plain_text', text: 'Skip' },
        blocks: [
          {
            type: 'input',
            block_id: 'reason',
            optional: true,
            label: { type: 'plain_text', text: 'What was wrong with the reply?' },
            element: {
              type: 'radio_buttons',
              action_id: 'reason',
              options: FEEDBACK_REASONS.map((r) => ({ text: { type: 'plain_text', text: FEEDBACK_REASON_TEXT[r] }, value: r })),
            },
          },
          {
            type: 'input',
            block_id: 'comment',
            optional: true,
            label: { type: 'plain_text', text: 'Anything else? (optional)' },
            element: { type: 'plain_text_input', action_id: 'comment', multiline: true, max_length: MAX_FEEDBACK_COMMENT },
          },
        ],
      },
    })
    .catch((error: unknown) => log('warn', 'slack: could not open the feedback modal', { code: describeSlackError(error) }));
}
