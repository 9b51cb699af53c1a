import type { App as BoltApp, webApi } from '@slack/bolt';

import { parseLabel } from '../../core/review/review-tasks.js';
import type { Log } from '../../kernel/log.js';
import type { CardReplies, ChannelReview, ReviewDesk } from '../../review/review-desk.js';
import { HOW_TO_JUDGE_ACTION, LABEL_ACTION, LABEL_BLOCK, renderHowToJudge, renderReviewCard } from './render-review-card.js';
import type { SlackGroupMembership } from './slack-user-groups.js';
import { describeSlackError } from './working-reaction.js';

export interface SlackReviewDeps {
  readonly review: ReviewDesk;
  readonly log: Log;
  /** The review channel's id; without it no cards are posted (labels on old cards still count). */
  readonly channel: string | undefined;
  /** CANDOR_REVIEWERS: its "slack:group:S…" entries make a user group's members reviewers. */
  readonly reviewers: readonly string[];
  /** Membership of the user groups CANDOR_REVIEWERS names. */
  readonly isGroupMember: SlackGroupMembership;
  /** CANDOR_PUBLIC_URL: cards link to the interaction in the console. @default no link */
  readonly publicUrl?: string | undefined;
}

export interface SlackReview {
  /** Posts a card for every sample not posted anywhere yet (at most `limit`); returns how many were posted. */
  postPending(limit?: number): Promise<number>;
  /** Posts a plain message (the agreement report's summary) to the review channel. */
  postSummary(text: string): Promise<void>;
}

/**
 * Review in Slack: cards in the review channel; a reviewer labels by reacting
 * with an emoji from a task's legend (removing the reaction removes the label)
 * or by pressing a label button or choosing from a menu (the card then shows
 * their choices and who labelled). "How to judge" opens the criteria. Anyone else
 * gets an ephemeral note and nothing is recorded. What a label means and who
 * may give one is decided by the review desk; this file only speaks Slack.
 */
export function registerSlackReview(bolt: BoltApp, client: webApi.WebClient, deps: SlackReviewDeps): SlackReview {
  const desk = deps.review.open({
    platform: 'slack',
    async post(item, tasks) {
      const channel = deps.channel as string; // postPending (below) runs only with a review channel
      const card = renderReviewCard(item, tasks, { publicUrl: deps.publicUrl });
      const result = await client.chat.postMessage({
        channel,
        text: card.text,
        blocks: card.blocks as never,
        unfurl_links: false,
        unfurl_media: false,
      });
      return postRef(channel, String(result.ts));
    },
    isGroupReviewer: (user) => deps.isGroupMember(deps.reviewers, user),
    describeError: describeSlackError,
  });
  const cards: ReviewCards = { deps, client, desk };

  bolt.event('reaction_added', labelByReaction(cards, false) as never);
  bolt.event('reaction_removed', labelByReaction(cards, true) as never);
  bolt.action(LABEL_ACTION, async ({ ack, body, action }) => {
    await ack();
    await labelByPress(cards, body, action);
  });
  // "How to judge" (the card's overflow menu): the criteria of the card's tasks, in a modal.
  bolt.action(HOW_TO_JUDGE_ACTION, async ({ ack, body, action }) => {
    await ack();
    await openHowToJudge(cards, body, action);
  });

  return {
    async postSummary(text) {
      if (!deps.channel) return;
      await client.chat.postMessage({ channel: deps.channel, text: text.slice(0, 3900) }).catch((error: unknown) => {
        deps.log('error', 'slack: could not post the agreement summary', { code: describeSlackError(error) });
      });
    },
    postPending: (limit) => (deps.channel ? desk.postPending(limit) : Promise.resolve(0)),
  };
}

/** What the review cards' handlers act with: the settings, the Web API and this channel's side of the desk. */
interface ReviewCards {
  readonly deps: SlackReviewDeps;
  readonly client: webApi.WebClient;
  readonly desk: ChannelReview;
}

const postRef = (channel: string, ts: string) => `slack:${channel}|${ts}`;

/**
 * Replies on the card at channel/ts: re-render it with `user`'s choices selected; tell them (ephemerally)
 * when they are not a reviewer, unless `tell` is off (a removed reaction).
 */
function replies(cards: ReviewCards, channel: string, ts: string, user: string, tell = true): CardReplies {
  const { deps, client } = cards;
  return {
    async update(item, tasks, labels) {
      const card = renderReviewCard(item, tasks, { labels, viewer: `slack:${user}`, publicUrl: deps.publicUrl });
      await client.chat.update({ channel, ts, text: card.text, blocks: card.blocks as never });
    },
    tell: tell ? (text) => ephemeral(cards, channel, user, text) : undefined,
  };
}

/** A note only `user` sees; a failure is logged, never thrown. */
async function ephemeral({ deps, client }: ReviewCards, channel: string, user: string, text: string): Promise<void> {
  await client.chat.postEphemeral({ channel, user, text }).catch((error: unknown) => {
    deps.log('warn', 'slack: could not send an ephemeral note', { code: describeSlackError(error) });
  });
}

/** A reaction added (or removed) on a card: a label emoji sets (or removes) that label. */
function labelByReaction(cards: ReviewCards, removed: boolean) {
  return async ({
    event,
    body,
  }: {
    event: { user: string; reaction: string; item: { type: string; channel?: string; ts?: string } };
    body: { event_id?: string };
  }) => {
    if (event.item.type !== 'message' || !event.item.channel || !event.item.ts) return;
    const label = parseLabel(event.reaction, undefined, cards.deps.review.tasks);
    if (!label.ok) return; // not a label emoji
    await cards.desk.label(
      {
        postRef: postRef(event.item.channel, event.item.ts),
        user: event.user,
        task: label.task,
        value: label.value,
        action: removed ? 'remove' : 'set',
        via: 'reaction',
        eventId: body.event_id ? `slack:${body.event_id}` : undefined,
      },
      replies(cards, event.item.channel, event.item.ts, event.user, !removed),
    );
  };
}

/** A label button or a label menu's choice on a card. */
async function labelByPress(cards: ReviewCards, body: unknown, action: unknown): Promise<void> {
  const b = body as { user: { id: string }; channel?: { id: string }; message?: { ts: string } };
  const a = action as { action_id: string; block_id?: string; value?: string; selected_option?: { value: string } };
  const match = LABEL_ACTION.exec(a.action_id);
  const channel = b.channel?.id;
  const ts = b.message?.ts;
  // A button names its value in the action id and its sample as the value; a menu's choice is the value
  // and its block names the sample.
  const value = match?.[2] ?? a.selected_option?.value;
  const sampleId = match?.[2] !== undefined ? a.value : LABEL_BLOCK.exec(a.block_id ?? '')?.[1];
  if (!match || !channel || !ts || value === undefined || sampleId === undefined) return;
  const label = {
    postRef: postRef(channel, ts),
    user: b.user.id,
    task: match[1] as string,
    value,
    action: 'set' as const,
    via: 'button' as const,
  };
  await cards.desk.label({ ...label, sampleId: Number(sampleId) }, replies(cards, channel, ts, b.user.id));
}

/** The criteria of the tasks a card's "How to judge" names (all tasks when it names none we know), in a modal. */
async function openHowToJudge({ deps, client }: ReviewCards, body: unknown, action: unknown): Promise<void> {
  const trigger = (body as { trigger_id?: string }).trigger_id;
  const ids = ((action as { selected_option?: { value: string } }).selected_option?.value ?? '').split(',');
  const tasks = deps.review.tasks.filter((t) => ids.includes(t.id));
  if (!trigger) return;
  await client.views
    .open({ trigger_id: trigger, view: renderHowToJudge(tasks.length > 0 ? tasks : deps.review.tasks) as never })
    .catch((error: unknown) => deps.log('warn', 'slack: could not open "How to judge"', { code: describeSlackError(error) }));
}
