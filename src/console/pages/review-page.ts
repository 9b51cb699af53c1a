import type { ReviewTask } from '../../core/review/review-tasks.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { ReviewQueue, ReviewQueueFilter } from '../review-queue.js';
import { reviewParams } from './console-filters.js';
import { formatTime, href, html, truncate, type Html } from './html.js';

const SOURCES = [
  { id: 'live', label: 'live' },
  { id: 'imported', label: 'imported' },
  { id: 'all', label: 'all' },
] as const;

export interface ReviewPageOptions {
  readonly tasks: readonly ReviewTask[];
  readonly channels: readonly string[];
  readonly kbs: readonly string[];
  readonly reviewer: string | null;
}

/**
 * The review queue: samples nobody has labelled first, then the rest, newest first; the backlog; source tabs
 * (live, imported, all) with their counts, so imported benchmark items never bury live ones; filters by task,
 * channel, KB and decision; each sample a link to label it.
 */
export function reviewPage(
  queue: ReviewQueue,
  labels: readonly CurrentLabel[],
  filter: ReviewQueueFilter,
  page: number,
  options: ReviewPageOptions,
): Html {
  const params = reviewParams(filter);
  const source = filter.source ?? 'live';
  return html`${sourceTabs(queue, params, source)}
    ${queueFilters(filter, source, options)}
    <p data-testid="backlog">
      <strong data-testid="backlog-count">${queue.backlog.toLocaleString('en')}</strong> of ${queue.total.toLocaleString('en')}
      ${source === 'all' ? '' : source} sample${queue.total === 1 ? '' : 's'} not labelled by anyone yet${filter.task ? html` for <span class="mono">${filter.task}</span>` : ''}
      (the backlog; judges do not count). Unlabelled first, then newest first.
    </p>
    <p class="muted">
      ${
        options.reviewer
          ? html`You label as <span class="mono" data-testid="reviewer">${options.reviewer}</span>: open a sample to label it.`
          : html`Open a sample to read it. Labelling here needs a reviewer: sign in as a basic-auth user listed as
              <span class="mono">console:NAME</span> in CANDOR_REVIEWERS. Or label in Slack or Teams, or with
              <span class="mono">candor review label ID TASK LABEL --as NAME</span>.`
      }
    </p>
    ${
      queue.rows.length === 0
        ? html`<p class="muted" data-testid="no-samples">
            No samples match. The server samples on CANDOR_REVIEW_CRON, or run: candor review sample
          </p>`
        : samplesTable(queue.rows, labels, params)
    }
    <nav class="pager" aria-label="Pages">
      ${page > 1 ? html`<a href="${href('/review', { ...params, page: page - 1 })}" rel="prev">← previous</a> ` : ''}${
        queue.more ? html`<a href="${href('/review', { ...params, page: page + 1 })}" rel="next" data-testid="next-page">next →</a>` : ''
      }
    </nav>`;
}

/** A tab per sample source (live, imported, all) with its count, keeping the other filters. */
function sourceTabs(queue: ReviewQueue, params: Record<string, string | undefined>, source: string): Html {
  const count = (id: (typeof SOURCES)[number]['id']) =>
    id === 'all' ? queue.bySource.live.total + queue.bySource.imported.total : queue.bySource[id].total;
  return html`<nav class="tabs" aria-label="Sample source" data-testid="review-sources">
      ${SOURCES.map(
        (s) =>
          html`<a
            href="${href('/review', { ...params, source: s.id === 'live' ? undefined : s.id })}"
            ${s.id === source ? html` aria-current="page"` : ''}
            data-testid="source-${s.id}"
            >${s.label} <span class="count">${count(s.id).toLocaleString('en')}</span></a
          >`,
      )}
    </nav>`;
}

/** The task, channel, KB and decision filters (the source kept as a hidden field). */
function queueFilters(filter: ReviewQueueFilter, source: string, options: ReviewPageOptions): Html {
  const select = (name: 'task' | 'channel' | 'kb' | 'decision', label: string, values: readonly { value: string; text: string }[]) =>
    html`<label
      >${label}<select name="${name}" data-testid="review-${name}">
        <option value="">any</option>
        ${values.map((v) => html`<option value="${v.value}" ${filter[name] === v.value ? html` selected` : ''}>${v.text}</option>`)}
      </select></label
    >`;
  const plain = (values: readonly string[]) => values.map((v) => ({ value: v, text: v }));
  return html`<form class="filters" method="get" action="/review">
      ${source === 'live' ? '' : html`<input type="hidden" name="source" value="${source}" />`}
      ${select(
        'task',
        'Task',
        options.tasks.map((t) => ({ value: t.id, text: t.id })),
      )}${select('channel', 'Channel', plain(options.channels.filter((c) => c !== 'import')))}${select('kb', 'Knowledge base', plain(options.kbs))}${select(
        'decision',
        'Decision',
        [
          { value: 'answer', text: 'answered' },
          { value: 'abstain', text: 'refused' },
          { value: 'unknown', text: 'unknown (imported)' },
        ],
      )}
      <button type="submit">Filter</button>
    </form>`;
}

/** The page's samples, each a link to label it, with the labels it has (judges' too). */
function samplesTable(rows: ReviewQueue['rows'], labels: readonly CurrentLabel[], params: Record<string, string | undefined>): Html {
  const bySample = new Map<number, CurrentLabel[]>();
  for (const label of labels) bySample.set(label.sampleId, [...(bySample.get(label.sampleId) ?? []), label]);
  return html`<div class="panel">
            <table data-testid="samples">
              <thead>
                <tr>
                  <th scope="col">sample</th>
                  <th scope="col">sampled</th>
                  <th scope="col">channel</th>
                  <th scope="col">KB</th>
                  <th scope="col">question</th>
                  <th scope="col">decision</th>
                  <th scope="col">labels</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  (s) =>
                    html`<tr data-testid="sample" data-labelled="${s.labelled ? 'yes' : 'no'}">
                      <td><a href="${href(`/review/${s.sampleId}`, params)}" data-testid="sample-link">${s.sampleId}</a></td>
                      <td class="muted">${formatTime(s.sampledAt)}</td>
                      <td>${s.channel}<div class="muted mono">${s.stratum}</div></td>
                      <td>${s.kb ?? '–'}</td>
                      <td><a href="${href(`/review/${s.sampleId}`, params)}">${truncate(s.question, 90)}</a></td>
                      <td class="${s.decision === 'answer' ? 'answer' : s.decision === 'abstain' ? 'abstain' : 'muted'}">
                        ${s.decision ?? 'unknown'}${s.reason ? html` <span class="mono muted">${s.reason}</span>` : ''}
                      </td>
                      <td>
                        ${
                          s.labelled || bySample.has(s.sampleId)
                            ? (bySample.get(s.sampleId) ?? []).map(
                                (l) =>
                                  html`<div><span class="mono">${l.task}</span>: ${l.value} <span class="muted">by ${l.annotator}</span></div>`,
                              )
                            : html`<span class="badge state-open">unlabelled</span>`
                        }
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`;
}
