import { criteriaLines, outcomeLabel, tasksFor, type ReviewTask } from '../../core/review/review-tasks.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { ReviewItem } from '../../review/review-items.js';
import { csrfInput } from './csrf.js';
import { formatTime, href, html, type Html } from './html.js';
import { nearMissesView } from './near-misses-view.js';

/** What a label post redirected with (known words only: nothing from it is echoed but a task and outcome id). */
export interface LabelNotice {
  readonly outcome: string;
  readonly task: string;
  readonly value: string;
}

const OUTCOME_TEXT: Readonly<Record<string, string>> = {
  recorded: 'Label recorded',
  unchanged: 'You had already given this label',
  removed: 'Label removed',
  not_current: 'That label was no longer yours to remove',
  duplicate_event: 'Already recorded',
};

/**
 * One review sample as a reviewer labels it in the console: the question, the reply and its evidence, each
 * task's criteria with every current label, and one button per outcome (plain form posts carrying the CSRF
 * token). A reviewer's own label can be taken back. Without a reviewer identity the buttons are not shown.
 */
export function reviewSamplePage(
  item: ReviewItem,
  labels: readonly CurrentLabel[],
  options: {
    tasks: readonly ReviewTask[];
    reviewer: string | null;
    whyNot: string;
    csrf: string | null;
    back: Record<string, string | undefined>;
    next: number | null;
    notice?: LabelNotice | undefined;
    error?: string | undefined;
  },
): Html {
  const tasks = tasksFor(item.decision).map((t) => options.tasks.find((d) => d.id === t.id) ?? t);
  const decision = item.decision === 'answer' ? 'Answered' : item.decision === 'abstain' ? 'Refused' : 'Imported reply';
  return html`<p>
      <a href="${href('/review', options.back)}">← the queue</a>${
        options.next !== null
          ? html` · <a href="${href(`/review/${options.next}`, options.back)}" data-testid="next-unlabelled">next unlabelled →</a>`
          : ''
      }
    </p>
    ${
      options.notice
        ? html`<p class="notice" role="status" data-testid="label-notice">
            ${OUTCOME_TEXT[options.notice.outcome] ?? options.notice.outcome}: <span class="mono">${options.notice.task}</span> =
            ${options.notice.value}.
          </p>`
        : ''
    }
    ${options.error ? html`<p class="error" role="alert" data-testid="label-error">${options.error}</p>` : ''}
    <div class="panel">
      <table>
        <tr>
          <th scope="row">question</th>
          <td data-testid="sample-question">${item.question}</td>
        </tr>
        <tr>
          <th scope="row">asked</th>
          <td>
            ${formatTime(item.askedAt)} in <span class="mono">${item.channel}</span>${item.kb ? html` · knowledge base ${item.kb}` : ''} ·
            <a href="/interactions/${item.interactionId}">interaction ${item.interactionId}</a>
          </td>
        </tr>
        <tr>
          <th scope="row">decision</th>
          <td class="${item.decision === 'answer' ? 'answer' : item.decision === 'abstain' ? 'abstain' : 'muted'}">
            ${decision}${item.reason ? html` <span class="mono muted">${item.reason}</span>` : ''}${
              item.expected ? html` <span class="muted">(the right decision: ${item.expected})</span>` : ''
            }
          </td>
        </tr>
      </table>
    </div>
    <div class="reply" data-testid="sample-reply">${item.reply}</div>
    ${
      item.evidence.length > 0
        ? html`<ol class="sources">
            ${item.evidence.map((e) => html`<li>${e.text} <span class="muted">(${e.source})</span></li>`)}
          </ol>`
        : ''
    }
    ${item.decision === 'abstain' ? nearMissesView(item.considered) : ''}
    ${
      options.reviewer
        ? html`<p class="muted">You label as <span class="mono" data-testid="reviewer">${options.reviewer}</span>.</p>`
        : html`<p class="muted" data-testid="not-a-reviewer">${options.whyNot}</p>`
    }
    ${tasks.map((task) => taskSection(item, task, labels, options))}`;
}

function taskSection(
  item: ReviewItem,
  task: ReviewTask,
  labels: readonly CurrentLabel[],
  options: { reviewer: string | null; csrf: string | null; back: Record<string, string | undefined> },
): Html {
  const given = labels.filter((l) => l.task === task.id);
  const mine = given.find((l) => l.annotator === options.reviewer)?.value;
  const hidden = (value: string, action: 'set' | 'remove') =>
    html`${csrfInput(options.csrf)}<input type="hidden" name="task" value="${task.id}" /><input type="hidden" name="value" value="${value}" /><input
        type="hidden"
        name="action"
        value="${action}"
      />${Object.entries(options.back).map(([k, v]) => (v === undefined ? '' : html`<input type="hidden" name="back_${k}" value="${v}" />`))}`;
  return html`<section class="gap" data-testid="task-${task.id}">
    <h2>${task.title} <span class="mono muted">${task.id}</span></h2>
    <ul class="criteria">
      ${criteriaLines(task).map((line) => html`<li>${line.label ? html`<strong>${line.label}</strong> — ` : ''}${line.text}</li>`)}
    </ul>
    <p>
      ${
        given.length === 0
          ? html`<span class="muted">No labels yet.</span>`
          : given.map(
              (l) =>
                html`<span class="label-chip" data-testid="label"
                  ><span class="mono">${l.annotator}</span>: ${outcomeLabel(task, l.value)}</span
                > `,
            )
      }
    </p>
    ${
      options.reviewer
        ? html`<div class="fact-actions" role="group" aria-label="Label ${task.id}">
            ${task.outcomes.map(
              (value) =>
                html`<form method="post" action="/review/${item.sampleId}">
                  ${hidden(value, 'set')}
                  <button type="submit" data-testid="label-${task.id}-${value}" ${mine === value ? html` aria-pressed="true" class="chosen"` : ''}>
                    ${outcomeLabel(task, value)}
                  </button>
                </form>`,
            )}
            ${
              mine !== undefined
                ? html`<form method="post" action="/review/${item.sampleId}">
                    ${hidden(mine, 'remove')}
                    <button type="submit" class="danger" data-testid="unlabel-${task.id}">Take back my label</button>
                  </form>`
                : ''
            }
          </div>`
        : ''
    }
  </section>`;
}
