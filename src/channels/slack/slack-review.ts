import type { App as BoltApp, webApi } from '@slack/bolt';
import { and, eq, isNull } from 'drizzle-orm';

import { isReviewer, parseLabel, tasksFor, type ReviewTask } from '../../core/review/review-tasks.js';
import type { Log } from '../../log.js';
import { currentLabels, removeLabel, setLabel, type LabelOutcome } from '../../review/label-store.js';
import { findSampleByPost, loadReviewItems } from '../../review/review-items.js';
import type { Db } from '../../store/open-store.js';
import { reviewSamples } from '../../store/schema.js';
import { LABEL_ACTION, renderReviewCard } from './render-review-card.js';
import { describeSlackError } from './working-reaction.js';

export interface SlackReviewDeps {
  readonly db: Db;
  readonly log: Log;
  /** The review channel's id; without it no cards are posted (labels on old cards still count). */
  readonly channel: string | undefined;
  readonly reviewers: readonly string[];
  readonly tasks: readonly ReviewTask[];
}

export interface SlackReview {
  /** Posts a card for every sample not posted anywhere yet (at most `limit`); returns how many were posted. */
  postPending(limit?: number): Promise<number>;
  /** Posts a plain message (the agreement report's summary) to the review channel. */
  postSummary(text: string): Promise<void>;
}

const NOT_A_REVIEWER =
  "Thanks — but only configured reviewers' labels count, so this one was not recorded. Ask whoever runs Candor to add you to CANDOR_REVIEWERS.";

/**
 * Review in Slack: cards in the review channel; a reviewer labels by reacting
 * with an emoji from a task's legend (removing the reaction removes the label)
 * or by pressing a label button (the card then shows the labels). Anyone else
 * gets an ephemeral note and nothing is recorded.
 */
export function registerSlackReview(bolt: BoltApp, client: webApi.WebClient, deps: SlackReviewDeps): SlackReview {
  const postRef = (channel: string, ts: string) => `slack:${channel}|${ts}`;
  const groups = deps.reviewers.filter((r) => r.startsWith('slack:group:')).map((r) => r.slice('slack:group:'.length));
  const groupMembers = new Map<string, { at: number; members: Promise<Set<string>> }>();
  /** A reviewer by id, or as a member of a reviewer user group (members cached for 5 minutes). */
  const reviews = async (user: string): Promise<boolean> => {
    if (isReviewer(deps.reviewers, 'slack', user)) return true;
    for (const group of groups) {
      let cached = groupMembers.get(group);
      if (!cached || Date.now() - cached.at > 5 * 60_000) {
        const members = client.usergroups.users
          .list({ usergroup: group })
          .then((r) => new Set(r.users ?? []))
          .catch((error: unknown) => {
            deps.log('warn', 'slack: could not read a reviewer user group', { group, code: describeSlackError(error) });
            groupMembers.delete(group);
            return new Set<string>();
          });
        cached = { at: Date.now(), members };
        groupMembers.set(group, cached);
      }
      if ((await cached.members).has(user)) return true;
    }
    return false;
  };

  const refreshCard = async (channel: string, ts: string, sampleId: number) => {
    const [item] = await loadReviewItems(deps.db, [sampleId]);
    if (!item) return;
    const card = renderReviewCard(
      item,
      tasksFor(item.decision).map((t) => deps.tasks.find((d) => d.id === t.id) ?? t),
      await currentLabels(deps.db, { sampleIds: [sampleId] }),
    );
    await client.chat.update({ channel, ts, text: card.text, blocks: card.blocks as never }).catch((error: unknown) => {
      deps.log('warn', 'slack: could not update a review card', { code: describeSlackError(error) });
    });
  };

  const onReaction =
    (removed: boolean) =>
    async ({
      event,
      body,
    }: {
      event: { user: string; reaction: string; item: { type: string; channel?: string; ts?: string } };
      body: { event_id?: string };
    }) => {
      if (event.item.type !== 'message' || !event.item.channel || !event.item.ts) return;
      const item = await findSampleByPost(deps.db, postRef(event.item.channel, event.item.ts));
      if (!item) return; // a reaction on some other message
      const label = parseLabel(event.reaction, undefined, deps.tasks);
      if (!label.ok || !tasksFor(item.decision).some((t) => t.id === label.task)) return; // not a label emoji for this card
      if (!(await reviews(event.user))) {
        if (!removed) await ephemeral(event.item.channel, event.user, NOT_A_REVIEWER);
        return;
      }
      const change = {
        sampleId: item.sampleId,
        task: label.task,
        annotator: `slack:${event.user}`,
        value: label.value,
        via: 'reaction' as const,
        eventId: body.event_id ? `slack:${body.event_id}` : undefined,
      };
      const outcome: LabelOutcome = removed ? await removeLabel(deps.db, change) : await setLabel(deps.db, change);
      deps.log('info', 'slack: review label', { sampleId: item.sampleId, task: label.task, outcome });
      if (outcome === 'recorded' || outcome === 'removed') await refreshCard(event.item.channel, event.item.ts, item.sampleId);
    };

  const ephemeral = async (channel: string, user: string, text: string) => {
    await client.chat.postEphemeral({ channel, user, text }).catch((error: unknown) => {
      deps.log('warn', 'slack: could not send an ephemeral note', { code: describeSlackError(error) });
    });
  };

  bolt.event('reaction_added', onReaction(false) as never);
  bolt.event('reaction_removed', onReaction(true) as never);
  bolt.action(LABEL_ACTION, async ({ ack, body, action }) => {
    await ack();
    const b = body as { user: { id: string }; channel?: { id: string }; message?: { ts: string } };
    const a = action as { action_id: string; value?: string };
    const match = LABEL_ACTION.exec(a.action_id);
    const channel = b.channel?.id;
    const ts = b.message?.ts;
    if (!match || !channel || !ts) return;
    const item = await findSampleByPost(deps.db, postRef(channel, ts));
    if (!item || String(item.sampleId) !== a.value) return;
    if (!(await reviews(b.user.id))) return void (await ephemeral(channel, b.user.id, NOT_A_REVIEWER));
    const outcome = await setLabel(deps.db, {
      sampleId: item.sampleId,
      task: match[1] as string,
      annotator: `slack:${b.user.id}`,
      value: match[2] as string,
      via: 'button',
    });
    deps.log('info', 'slack: review label', { sampleId: item.sampleId, task: match[1], outcome });
    await refreshCard(channel, ts, item.sampleId);
  });

  return {
    async postSummary(text) {
      if (!deps.channel) return;
      await client.chat.postMessage({ channel: deps.channel, text: text.slice(0, 3900) }).catch((error: unknown) => {
        deps.log('error', 'slack: could not post the agreement summary', { code: describeSlackError(error) });
      });
    },
    async postPending(limit = 50) {
      const channel = deps.channel;
      if (!channel) return 0;
      const pending = await deps.db
        .select({ id: reviewSamples.id })
        .from(reviewSamples)
        .where(isNull(reviewSamples.postedTo))
        .orderBy(reviewSamples.id)
        .limit(limit);
      let posted = 0;
      for (const item of await loadReviewItems(
        deps.db,
        pending.map((p) => p.id),
      )) {
        // Claim the sample first, so that two replicas never post one card twice.
        const claimed = await deps.db
          .update(reviewSamples)
          .set({ postedTo: 'slack' })
          .where(and(eq(reviewSamples.id, item.sampleId), isNull(reviewSamples.postedTo)))
          .returning({ id: reviewSamples.id });
        if (claimed.length === 0) continue;
        const card = renderReviewCard(
          item,
          tasksFor(item.decision).map((t) => deps.tasks.find((d) => d.id === t.id) ?? t),
        );
        try {
          const result = await client.chat.postMessage({
            channel,
            text: card.text,
            blocks: card.blocks as never,
            unfurl_links: false,
            unfurl_media: false,
          });
          await deps.db
            .update(reviewSamples)
            .set({ postRef: postRef(channel, String(result.ts)) })
            .where(eq(reviewSamples.id, item.sampleId));
          posted += 1;
        } catch (error) {
          await deps.db.update(reviewSamples).set({ postedTo: null }).where(eq(reviewSamples.id, item.sampleId));
          deps.log('error', 'slack: could not post a review card', { code: describeSlackError(error), channel });
          break;
        }
      }
      return posted;
    },
  };
}
