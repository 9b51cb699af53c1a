import { isReviewer, tasksFor, type ReviewTask } from '../core/review/review-tasks.js';
import { removeLabel, setLabel, type LabelOutcome } from '../review/label-store.js';
import { loadReviewItems } from '../review/review-items.js';
import type { Db } from '../store/open-store.js';

/** The platform of console reviewers: CANDOR_REVIEWERS lists them as `console:NAME` (NAME a basic-auth user). */
export const CONSOLE_PLATFORM = 'console';

/** A label given with the console's buttons, by a signed-in console user. */
export interface ConsoleLabel {
  readonly sampleId: number;
  readonly task: string;
  readonly value: string;
  /** The console user (a CANDOR_CONSOLE_BASIC_AUTH name; "token" for the shared token, which is nobody). */
  readonly user: string;
  readonly remove: boolean;
}

export type ConsoleLabelResult =
  | { readonly ok: true; readonly outcome: LabelOutcome; readonly annotator: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly message: string };

/** Labelling in the console: the same rules and store (and so the same trace events) as Slack, Teams and the CLI. */
export interface ConsoleReview {
  /** The review tasks with the deployment's emoji (CANDOR_REVIEW_EMOJI). */
  readonly tasks: readonly ReviewTask[];
  /** The annotator a console user labels as (`console:NAME`), or null when they are not a configured reviewer. */
  reviewerOf(user: string): string | null;
  label(label: ConsoleLabel): Promise<ConsoleLabelResult>;
}

/** Why a console user cannot label, in words they can act on. */
export function notAReviewer(user: string): string {
  return user === 'token'
    ? 'Signed in with the shared console token, which names nobody: labels need a person. Sign in as a CANDOR_CONSOLE_BASIC_AUTH user listed as console:NAME in CANDOR_REVIEWERS.'
    : `"${user}" is not a configured reviewer: ask whoever runs Candor to add console:${user} to CANDOR_REVIEWERS.`;
}

/** The production console review, over the store. */
export function createConsoleReview(db: Db, settings: { reviewers: readonly string[]; tasks: readonly ReviewTask[] }): ConsoleReview {
  const reviewerOf = (user: string) =>
    user !== 'token' && isReviewer(settings.reviewers, CONSOLE_PLATFORM, user) ? `${CONSOLE_PLATFORM}:${user}` : null;
  return {
    tasks: settings.tasks,
    reviewerOf,
    async label(label) {
      const annotator = reviewerOf(label.user);
      if (annotator === null) return { ok: false, status: 403, message: notAReviewer(label.user) };
      const [item] = await loadReviewItems(db, [label.sampleId]);
      if (!item) return { ok: false, status: 404, message: `There is no review sample ${label.sampleId}.` };
      const task = tasksFor(item.decision)
        .map((t) => settings.tasks.find((d) => d.id === t.id) ?? t)
        .find((t) => t.id === label.task);
      if (!task)
        return {
          ok: false,
          status: 400,
          message: settings.tasks.some((t) => t.id === label.task)
            ? `${label.task} applies to answered items only; sample ${item.sampleId} was a refusal.`
            : `Unknown task "${label.task}".`,
        };
      if (!task.outcomes.includes(label.value))
        return { ok: false, status: 400, message: `"${label.value}" is not a label for ${task.id} (${task.outcomes.join(', ')}).` };
      const change = { sampleId: item.sampleId, task: task.id, annotator, value: label.value, via: 'console' as const };
      const outcome = label.remove ? await removeLabel(db, change) : await setLabel(db, change);
      return { ok: true, outcome, annotator };
    },
  };
}
