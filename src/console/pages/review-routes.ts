import { REVIEW_TASKS } from '../../core/review/review-tasks.js';
import { storableText } from '../../core/text/storable-text.js';
import type { ConsoleReads } from '../console-reads.js';
import { notAReviewer, type ConsoleReview } from '../console-review.js';
import type { ConsoleHandler, ConsoleRequest } from './console-context.js';
import { pageNumber, reviewFilter, reviewParams } from './console-filters.js';
import { redirect } from './console-http.js';
import { href, html } from './html.js';
import { reviewPage } from './review-page.js';
import { reviewSamplePage, type LabelNotice } from './review-sample-page.js';

const OUTCOMES = new Set(['recorded', 'unchanged', 'removed', 'not_current', 'duplicate_event']);

/**
 * `/review` (the queue) and `/review/ID` (one sample: read it, and label it with a form post when the viewer is
 * a configured reviewer). Without a review service (a console built without one) samples are read-only.
 */
export function reviewRoutes(deps: { reads: ConsoleReads; review?: ConsoleReview | undefined }): ConsoleHandler {
  const tasks = deps.review?.tasks ?? REVIEW_TASKS;
  const reviewerOf = (user: string) => deps.review?.reviewerOf(user) ?? null;
  return async (r) => {
    const path = r.url.pathname;
    if (path === '/review') {
      const filter = reviewFilter(r.q);
      const page = pageNumber(r.q);
      const [queue, choices] = await Promise.all([deps.reads.reviewQueue(filter, page), deps.reads.filterChoices()]);
      const labels = await deps.reads.labelsOf(queue.rows.map((s) => s.sampleId));
      return r.page(
        'Review',
        '/review',
        reviewPage(queue, labels, filter, page, { tasks, channels: choices.channels, kbs: r.kbs, reviewer: reviewerOf(r.user) }),
      );
    }
    const id = /^\/review\/(\d{1,9})$/.exec(path)?.[1];
    if (id === undefined) return false;
    const sampleId = Number(id);
    if (r.form) return label(r, sampleId);
    return show(r, sampleId, { notice: readNotice(r.url.searchParams) });
  };

  async function show(r: ConsoleRequest, sampleId: number, outcome: { notice?: LabelNotice; error?: string; status?: number }) {
    const item = await deps.reads.reviewItem(sampleId);
    if (!item) return r.page('Not found', '/review', html`<p class="muted">There is no review sample ${sampleId}.</p>`, { status: 404 });
    const back = backParams(r);
    const filter = reviewFilter((name) => back[name]);
    const [labels, queue] = await Promise.all([deps.reads.labelsOf([sampleId]), deps.reads.reviewQueue(filter, 1)]);
    const next = queue.rows.find((s) => !s.labelled && s.sampleId !== sampleId)?.sampleId ?? null;
    return r.page(
      `Review sample ${sampleId}`,
      '/review',
      reviewSamplePage(item, labels, {
        tasks,
        reviewer: reviewerOf(r.user),
        whyNot: deps.review ? notAReviewer(r.user) : 'Labelling is not available in this console.',
        csrf: r.csrf,
        back,
        next,
        notice: outcome.notice,
        error: outcome.error,
      }),
      { status: outcome.status ?? 200 },
    );
  }

  /** A label posted from a sample's page: recorded through the review service, then back to the page (303). */
  async function label(r: ConsoleRequest, sampleId: number) {
    const form = r.form as URLSearchParams;
    if (!deps.review) return show(r, sampleId, { error: 'Labelling is not available in this console.', status: 405 });
    const task = form.get('task') ?? '';
    const value = form.get('value') ?? '';
    const result = await deps.review.label({ sampleId, task, value, user: r.user, remove: form.get('action') === 'remove' });
    if (!result.ok) return show(r, sampleId, { error: result.message, status: result.status });
    return redirect(r.res, href(`/review/${sampleId}`, { ...backParams(r), done: result.outcome, done_task: task, done_value: value }));
  }
}

/** The queue filter a sample page returns to: the query's own, or a form's `back_*` fields. */
function backParams(r: ConsoleRequest): Record<string, string | undefined> {
  const posted = (name: string) => {
    const value = r.form?.get(`back_${name}`);
    return value ? storableText(value) : undefined;
  };
  const source = r.form ? posted : r.q;
  return reviewParams(reviewFilter(source));
}

function readNotice(params: URLSearchParams): LabelNotice | undefined {
  const outcome = params.get('done') ?? '';
  const task = params.get('done_task') ?? '';
  const value = params.get('done_value') ?? '';
  if (!OUTCOMES.has(outcome) || !REVIEW_TASKS.some((t) => t.id === task && t.outcomes.includes(value))) return undefined;
  return { outcome, task, value };
}
