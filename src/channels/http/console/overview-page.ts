import type { DayRow, Overview } from '../../../console/console-queries.js';
import type { feedbackSummary } from '../../../feedback/asker-feedback.js';
import { formatMs, formatPercent, href, html, type Html } from './html.js';
import { inlineBar, lines, stackedBars } from './svg-charts.js';

type FeedbackSummary = Awaited<ReturnType<typeof feedbackSummary>>;

/** Asks and abstention rate by day, top refusal reasons, latency, channels, and what askers said of the replies. */
export function overviewPage(measured: Overview, days: number, nowMs: number, feedback?: FeedbackSummary): Html {
  const o = { ...measured, days: everyDay(measured.days, days, nowMs) };
  const labels = o.days.map((d) => d.day.slice(5));
  const rate = o.totals.asks > 0 ? o.totals.abstained / o.totals.asks : null;
  const maxReason = Math.max(1, ...o.reasons.map((r) => r.n));
  return html` <form class="filters" method="get" action="/">
      <label
        >Window<select name="days">
          ${[1, 7, 30, 90].map((d) => html`<option value="${d}" ${d === days ? html` selected` : ''}>last ${d} day${d === 1 ? '' : 's'}</option>`)}
        </select></label
      ><button type="submit">Show</button>
    </form>
    <div class="cards">
      <div class="card">
        <div class="value" data-testid="asks-total">${o.totals.asks}</div>
        <div class="label">asks</div>
      </div>
      <div class="card">
        <div class="value" data-testid="answered-total">${o.totals.answered}</div>
        <div class="label">answered</div>
      </div>
      <div class="card">
        <div class="value" data-testid="abstained-total">${o.totals.abstained}</div>
        <div class="label">refused</div>
      </div>
      <div class="card">
        <div class="value">${formatPercent(rate)}</div>
        <div class="label">abstention rate</div>
      </div>
      <div class="card">
        <div class="value">${formatMs(o.totals.p50)}</div>
        <div class="label">latency p50</div>
      </div>
      <div class="card">
        <div class="value">${formatMs(o.totals.p95)}</div>
        <div class="label">latency p95</div>
      </div>
      ${
        feedback
          ? html`<div class="card">
                <div class="value" data-testid="feedback-rate">${formatPercent(feedback.replies > 0 ? feedback.rate : null)}</div>
                <div class="label">feedback rate (<span data-testid="feedback-replies">${feedback.withFeedback} of ${feedback.replies}</span> replies)</div>
              </div>
              <div class="card">
                <div class="value">
                  <span class="pass" data-testid="feedback-helpful">${feedback.helpful}</span> /
                  <span class="fail" data-testid="feedback-not-helpful">${feedback.notHelpful}</span>
                </div>
                <div class="label">helpful / not helpful</div>
              </div>`
          : ''
      }
    </div>
    ${
      o.totals.asks === 0
        ? html`<p class="muted">No asks in this window yet.</p>`
        : html` <h2>Asks per day</h2>
            <div class="panel">
              ${stackedBars({
                title: 'Asks per day, answered and refused',
                labels,
                series: [
                  { name: 'answered', values: o.days.map((d) => d.answered), className: 's-answer' },
                  { name: 'refused', values: o.days.map((d) => d.abstained), className: 's-abstain' },
                ],
              })}
            </div>
            <h2>Abstention rate per day</h2>
            <div class="panel">
              ${lines({ title: 'Abstention rate per day', labels, yMax: 1, format: (v) => `${Math.round(v * 100)}%`, series: [{ name: 'refused / asked', values: o.days.map((d) => (d.answered + d.abstained > 0 ? d.abstained / (d.answered + d.abstained) : null)), className: 's-1' }] })}
            </div>
            <h2>Latency per day</h2>
            <div class="panel">
              ${lines({
                title: 'Ask latency per day (ms)',
                labels,
                format: (v) => formatMs(v),
                series: [
                  { name: 'p50', values: o.days.map((d) => d.p50), className: 's-0' },
                  { name: 'p95', values: o.days.map((d) => d.p95), className: 's-3' },
                ],
              })}
            </div>`
    }
    <h2>Top refusal reasons</h2>
    ${
      o.reasons.length === 0
        ? html`<p class="muted">No refusals.</p>`
        : html`<div class="panel">
            <table data-testid="reasons">
              <thead>
                <tr>
                  <th>reason</th>
                  <th class="num">refusals</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${o.reasons.map(
                  (r) =>
                    html`<tr>
                      <td><a class="mono" href="${href('/interactions', { decision: 'abstain', reason: r.reason })}">${r.reason}</a></td>
                      <td class="num">${r.n}</td>
                      <td>${inlineBar(r.n, maxReason)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    <h2>Channels</h2>
    <div class="panel">
      <table>
        <thead>
          <tr>
            <th>channel</th>
            <th class="num">asks</th>
          </tr>
        </thead>
        <tbody>
          ${o.channels.map(
            (c) =>
              html`<tr>
                <td><a href="${href('/interactions', { channel: c.channel })}">${c.channel}</a></td>
                <td class="num">${c.n}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** Every day of the window, oldest first, with zero asks where none were made: the charts keep their time axis. */
function everyDay(rows: readonly DayRow[], days: number, nowMs: number): DayRow[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(nowMs - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, answered: 0, abstained: 0, p50: null, p95: null };
  });
}
