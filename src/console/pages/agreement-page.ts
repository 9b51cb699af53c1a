import type { AgreementReport, JudgeAgreement } from '../../core/review/agreement-report.js';
import type { agreementHistory } from '../console-queries.js';
import type { DisagreementList } from '../disagreements.js';
import { formatNumber, formatPercent, formatTime, html, truncate, type Html } from './html.js';
import { lines } from './svg-charts.js';

type Stored = Awaited<ReturnType<typeof agreementHistory>>;

/**
 * The latest agreement report per task (each judge version's agreement, kappa, confusion matrix and
 * per-class precision/recall/F1), each judge version's kappa over the stored reports (the trend), and the
 * disagreements with their questions, replies, every rater's label and the judge's reason.
 */
export function agreementPage(history: Stored, disagreements: DisagreementList | null = null, kb?: string): Html {
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
    ${tasks.map((task) => taskSection(task, latestReport, chronological))}
    ${disagreements ? disagreementList(disagreements, kb) : ''}`;
}

/** One task: the latest report's judges on it (with each one's detail), and their kappa over the stored reports. */
function taskSection(task: string, latestReport: AgreementReport, chronological: Stored): Html {
  const judges = [
    ...new Set(
      chronological.flatMap((r) => (r.report as AgreementReport).tasks.find((t) => t.task === task)?.judges.map((j) => j.judge) ?? []),
    ),
  ].sort();
  const current = latestReport.tasks.find((t) => t.task === task);
  return html`<h2>${task}</h2>
        ${current ? latestAgreement(task, current) : html`<p class="muted">Not in the latest report.</p>`}
        ${judges.length === 0 ? '' : kappaTrend(task, judges, chronological)}`;
}

/** How far people agree with each other on a task, and each judge version with them, in the latest report. */
function latestAgreement(task: string, current: AgreementReport['tasks'][number]): Html {
  return html`<p>
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
                </div>
                ${current.judges.map((j) => judgeDetail(task, j))}`;
}

/** Each judge version's kappa on a task, one point per stored report, oldest first. */
function kappaTrend(task: string, judges: readonly string[], chronological: Stored): Html {
  return html`<div class="panel">
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
              </div>`;
}

/** A judge version against the people's majority: the confusion matrix (rows: people, columns: judge) and per-class scores. */
function judgeDetail(task: string, j: JudgeAgreement): Html {
  const { categories, matrix } = j.confusion;
  return html`<div class="panel judge-detail" data-testid="judge-detail">
    <h3>${j.judge} <span class="muted">on ${task}</span></h3>
    <div class="side-by-side">
      <table class="matrix" data-testid="confusion">
        <caption>
          Confusion matrix: rows the people's majority, columns the judge
        </caption>
        <thead>
          <tr>
            <th scope="col">people ↓ / judge →</th>
            ${categories.map((c) => html`<th scope="col" class="num">${c}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${categories.map(
            (row, r) =>
              html`<tr>
                <th scope="row">${row}</th>
                ${categories.map((_, c) => html`<td class="num${r === c ? ' diagonal' : ''}">${matrix[r]?.[c] ?? 0}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
      <table data-testid="per-class">
        <caption>
          Per class (the people's majority as truth)
        </caption>
        <thead>
          <tr>
            <th scope="col">class</th>
            <th scope="col" class="num">support</th>
            <th scope="col" class="num">precision</th>
            <th scope="col" class="num">recall</th>
            <th scope="col" class="num">F1</th>
          </tr>
        </thead>
        <tbody>
          ${j.perClass.map(
            (m) =>
              html`<tr>
                <th scope="row">${m.category}</th>
                <td class="num">${m.support}</td>
                <td class="num">${formatNumber(m.precision)}</td>
                <td class="num">${formatNumber(m.recall)}</td>
                <td class="num">${formatNumber(m.f1)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </div>`;
}

/** Every disagreement of the latest report (of one KB's items when one is chosen), newest samples first. */
function disagreementList(list: DisagreementList, kb: string | undefined): Html {
  const heading = html`<h2 id="disagreements">Disagreements${kb ? html` <span class="muted">in ${kb}</span>` : ''}</h2>`;
  if (list.total === 0)
    return html`${heading}<p class="muted" data-testid="no-disagreements">The judges agree with the people on every item.</p>`;
  return html`${heading}
    <p class="muted" data-testid="disagreement-count">
      ${list.total} item${list.total === 1 ? '' : 's'} where a judge and the people's majority differ${
        list.rows.length < list.total ? `; the ${list.rows.length} newest shown` : ''
      }.
    </p>
    <div class="panel">
      <table data-testid="disagreements">
        <thead>
          <tr>
            <th scope="col">sample</th>
            <th scope="col">question and reply</th>
            <th scope="col">people</th>
            <th scope="col">judge</th>
            <th scope="col">the judge's reason</th>
          </tr>
        </thead>
        <tbody>
          ${list.rows.map(
            (d) =>
              html`<tr data-testid="disagreement">
                <td>
                  <a href="/review/${d.sampleId}">${d.sampleId}</a>
                  <div class="muted mono">${d.task}</div>
                  ${d.kb ? html`<div class="muted">${d.kb}</div>` : ''}
                </td>
                <td>
                  <div data-testid="disagreement-question"><strong>${d.question}</strong></div>
                  <div class="muted" data-testid="disagreement-reply">${truncate(d.reply, 400)}</div>
                </td>
                <td data-testid="disagreement-people">
                  ${Object.entries(d.humans).map(([who, value]) => html`<div><span class="mono">${who}</span>: ${value}</div>`)}
                  <div class="muted">majority: ${d.humanMajority}</div>
                </td>
                <td data-testid="disagreement-judge"><span class="mono">${d.judge}</span>: <strong>${d.judgeLabel}</strong></td>
                <td data-testid="disagreement-reason">${d.reason ?? html`<span class="muted">not recorded</span>`}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}
