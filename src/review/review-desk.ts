import { isReviewer, tasksFor, type ReviewTask } from '../core/review/review-tasks.js';
import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { currentLabels, removeLabel, setLabel, type CurrentLabel, type LabelOutcome } from './label-store.js';
import { findSampleByPost, type ReviewItem } from './review-items.js';
import { claimSamplePost, releaseSamplePost, saveSamplePost, unpostedItems } from './review-posts.js';

/** What a chat channel supplies to review: the transport and rendering of its cards, nothing else. */
export interface ReviewSurface {
  readonly platform: 'slack' | 'teams';
  /** Posts a new card into the review channel; returns its post ref ("slack:C1|ts", "teams:conversation|activity"). */
  post(item: ReviewItem, tasks: readonly ReviewTask[]): Promise<string>;
  /** Whether a user not listed by id counts as a reviewer another way (a Slack user group). */
  readonly isGroupReviewer?: ((user: string) => Promise<boolean>) | undefined;
  /** A transport error in a few words for the log (the platform's error code). @default the error's message */
  readonly describeError?: ((error: unknown) => string) | undefined;
}

/** One label a person gave on a card (a reaction or a button), as the channel read it. */
export interface CardLabel {
  readonly postRef: string;
  /** The platform's user id; the annotator is `<platform>:<user>`. */
  readonly user: string;
  readonly task: string;
  readonly value: string;
  readonly action: 'set' | 'remove';
  readonly via: 'reaction' | 'button';
  /** The platform's event id: a redelivered event is recorded once. */
  readonly eventId?: string | undefined;
  /** The sample a button names: a press on a card of another sample is ignored. */
  readonly sampleId?: number | undefined;
}

/** How the channel answers on the card a label came from. */
export interface CardReplies {
  /** Re-renders the card with its current labels. */
  update(item: ReviewItem, tasks: readonly ReviewTask[], labels: readonly CurrentLabel[]): Promise<void>;
  /** Tells a non-reviewer why nothing was recorded; absent where a note would only be noise (a removed reaction). */
  readonly tell?: ((text: string) => Promise<void>) | undefined;
}

/** What became of a label: the store's outcome, or why it was not one. */
export type CardLabelOutcome = LabelOutcome | 'not_a_card' | 'not_a_label' | 'not_a_reviewer';

/** Review as one channel runs it. */
export interface ChannelReview {
  /** Posts a card for every sample not posted anywhere yet (at most `limit`); returns how many were posted. @default 50 */
  postPending(limit?: number): Promise<number>;
  /** Records (or removes) a label given on a card, when it is a label of that card by a reviewer. */
  label(label: CardLabel, replies: CardReplies): Promise<CardLabelOutcome>;
}

/** Review for chat channels: the task legend, and posting and labelling written once for every channel. */
export interface ReviewDesk {
  /** The review tasks with the deployment's emoji (CANDOR_REVIEW_EMOJI). */
  readonly tasks: readonly ReviewTask[];
  open(surface: ReviewSurface): ChannelReview;
}

export interface ReviewDeskSettings {
  /** CANDOR_REVIEWERS: "platform:id", a bare id, or (Slack) "slack:group:S…". */
  readonly reviewers: readonly string[];
  readonly tasks: readonly ReviewTask[];
  readonly log: Log;
}

/** The one reply to a label by someone who is not a reviewer, on every channel. */
export const NOT_A_REVIEWER =
  "Thanks — but only configured reviewers' labels count, so this one was not recorded. Ask whoever runs Candor to add you to CANDOR_REVIEWERS.";

/** The production review desk, over the store. */
export function createReviewDesk(db: Db, settings: ReviewDeskSettings): ReviewDesk {
  const { log } = settings;
  /** The tasks a reviewer labels on this item, with the deployment's emoji. */
  const tasksOf = (item: ReviewItem) => tasksFor(item.decision).map((t) => settings.tasks.find((d) => d.id === t.id) ?? t);
  return {
    tasks: settings.tasks,
    open(surface) {
      const { platform } = surface;
      const describe = surface.describeError ?? describeError;
      const reviews = async (user: string) =>
        isReviewer(settings.reviewers, platform, user) || ((await surface.isGroupReviewer?.(user)) ?? false);
      return {
        async postPending(limit = 50) {
          let posted = 0;
          for (const item of await unpostedItems(db, limit)) {
            if (!(await claimSamplePost(db, item.sampleId, platform))) continue;
            try {
              await saveSamplePost(db, item.sampleId, await surface.post(item, tasksOf(item)));
              posted += 1;
            } catch (error) {
              await releaseSamplePost(db, item.sampleId);
              log('error', `${platform}: could not post a review card`, { error: describe(error) });
              break; // the channel is down or misconfigured: the next run tries again
            }
          }
          return posted;
        },
        async label(label, replies) {
          const item = await findSampleByPost(db, label.postRef);
          if (!item || (label.sampleId !== undefined && item.sampleId !== label.sampleId)) return 'not_a_card';
          const tasks = tasksOf(item);
          if (!tasks.find((t) => t.id === label.task)?.outcomes.includes(label.value)) return 'not_a_label';
          if (!(await reviews(label.user))) {
            await replies.tell?.(NOT_A_REVIEWER);
            return 'not_a_reviewer';
          }
          const change = {
            sampleId: item.sampleId,
            task: label.task,
            annotator: `${platform}:${label.user}`,
            value: label.value,
            via: label.via,
            eventId: label.eventId,
          };
          const outcome = label.action === 'remove' ? await removeLabel(db, change) : await setLabel(db, change);
          log('info', `${platform}: review label`, { sampleId: item.sampleId, task: label.task, outcome });
          if (outcome === 'recorded' || outcome === 'removed') {
            await replies.update(item, tasks, await currentLabels(db, { sampleIds: [item.sampleId] })).catch((error: unknown) => {
              log('warn', `${platform}: could not update a review card`, { error: describe(error) });
            });
          }
          return outcome;
        },
      };
    },
  };
}
