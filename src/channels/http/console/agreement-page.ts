import type { agreementHistory } from '../../../console/console-queries.js';
import type { AgreementReport } from '../../../core/review/agreement-report.js';
import { formatNumber, formatPercent, formatTime, html, type Html } from './html.js';
import { lines } from './svg-charts.js';

type Stored = Awaited<ReturnType<typeof agreementHistory>>;

/** The latest agreement report per task, and each judge version's kappa over the stored reports (the trend). */
export function agreementPage(history: Stored): Html {
  if (history.length === 0)
    return html`<p class="muted">
      No agreement report yet. The server makes one on CANDOR_AGREEMENT_CRON, or run: candor report agreement --run
    </p>`;
  const chronological = [...history].reverse();
  const latest = history[0]!;
  const latestReport = latest.report as AgreementReport;
  const tasks = [...new Set(chronological.flatMap((r) => (r.report as AgreementReport).tasks.map((t) => t.task)))];
  return html`<p>
      Latest report: <span class="mono">${latest.runKey}</span>, ${formatTime(latest.createdAt)}. ${history.length}
      report${history.length === 1 ? '' : 's'} stored.
    </p>
    ${tasks.map((task) => {
      const judges = [
        ...new Set(
          chronological.flatMap((r) => (r.report as AgreementReport).tasks.find((t) => t.task === task)?.judges.map((j) => j.judge) ?? []),
        ),
      ].sort();
      const current = latestReport.tasks.find((t) => t.task === task);
      return html`<h2>${task}</h2>
        ${
          current
            ? html`<p>
                  ${current.items} items labelled by people (${current.humans.join(', ') || 'none'}); people agree with each other on
                  ${formatPercent(current.humanHuman.percentAgreement)} of ${current.humanHuman.items} shared
                  items${current.humanHuman.krippendorffAlpha === null ? '' : `, Krippendorff's alpha ${formatNumber(current.humanHuman.krippendorffAlpha)}`}.
                </p>
                <div class="panel">
                  <table data-testid="judges">
                    <thead>
                      <tr>
                        <th>judge version</th>
                        <th class="num">items</th>
                        <th class="num">agreement</th>
                        <th class="num">Cohen's kappa</th>
                        <th class="num">95% CI</th>
                        <th class="num">disagreements</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${current.judges.map(
                        (j) =>
                          html`<tr>
                            <td class="mono">${j.judge}</td>
                            <td class="num">${j.items}</td>
                            <td class="num">${formatPercent(j.percentAgreement)}</td>
                            <td class="num">${formatNumber(j.cohensKappa)}</td>
                            <td class="num">
                              ${j.kappaCI.low === null ? '–' : `[${formatNumber(j.kappaCI.low)}, ${formatNumber(j.kappaCI.high)}]`}
                            </td>
                            <td class="num">${j.disagreements.length}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>`
            : html`<p class="muted">Not in the latest report.</p>`
        }
        ${
          judges.length === 0
            ? ''
            : html`<div class="panel">
                ${lines({
                  title: `Cohen's kappa by judge version over reports: ${task}`,
                  labels: chronological.map((r) => formatTime(r.createdAt).slice(5, 16)),
                  yMax: 1,
                  format: (v) => v.toFixed(2),
                  series: judges.map((judge, i) => ({
                    name: judge,
                    className: `s-${i % 6}`,
                    values: chronological.map(
                      (r) =>
                        (r.report as AgreementReport).tasks.find((t) => t.task === task)?.judges.find((j) => j.judge === judge)
                          ?.cohensKappa ?? null,
                    ),
                  })),
                })}
              </div>`
        }`;
    })}`;
}
