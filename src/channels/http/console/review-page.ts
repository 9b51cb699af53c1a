import type { reviewSamplesPage } from '../../../console/console-queries.js';
import type { CurrentLabel } from '../../../review/label-store.js';
import { formatTime, html, type Html } from './html.js';
import { truncate } from './interactions-page.js';

/** Review samples, newest first, with every current label and who gave it. */
export function reviewPage(samples: Awaited<ReturnType<typeof reviewSamplesPage>>, labels: readonly CurrentLabel[]): Html {
  if (samples.length === 0)
    return html`<p class="muted">No review samples yet. The server samples on CANDOR_REVIEW_CRON, or run: candor review sample</p>`;
  const bySample = new Map<number, CurrentLabel[]>();
  for (const label of labels) bySample.set(label.sampleId, [...(bySample.get(label.sampleId) ?? []), label]);
  const labelled = samples.filter((s) => bySample.has(s.sampleId)).length;
  return html`<p>
      ${samples.length} newest samples, ${labelled} labelled. Label in Slack or Teams, or:
      <span class="mono">candor review label ID TASK LABEL --as NAME</span>
    </p>
    <div class="panel">
      <table data-testid="samples">
        <thead>
          <tr>
            <th>sample</th>
            <th>when</th>
            <th>stratum</th>
            <th>question</th>
            <th>decision</th>
            <th>posted to</th>
            <th>labels</th>
          </tr>
        </thead>
        <tbody>
          ${samples.map(
            (s) =>
              html`<tr>
                <td>${s.sampleId}</td>
                <td class="muted">${formatTime(s.createdAt)}</td>
                <td class="mono">${s.stratum}</td>
                <td><a href="/interactions/${s.interactionId}">${truncate(s.question, 90)}</a></td>
                <td class="${s.decision === 'answer' ? 'answer' : 'abstain'}">
                  ${s.decision ?? ''}${s.reason ? html` <span class="mono muted">${s.reason}</span>` : ''}
                </td>
                <td>${s.postedTo ?? html`<span class="muted">not posted</span>`}</td>
                <td>
                  ${(bySample.get(s.sampleId) ?? []).map((l) => html`<div><span class="mono">${l.task}</span>: ${l.value} <span class="muted">by ${l.annotator}</span></div>`)}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}
