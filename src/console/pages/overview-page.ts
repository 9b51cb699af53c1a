import { bucketLabel, bucketStarts } from '../../core/report/time-buckets.js';
import type { feedbackSummary } from '../../feedback/asker-feedback.js';
import type { BucketRow, Overview } from '../overview-query.js';
import { WINDOW_DAYS, type TimeWindow } from './console-filters.js';
import { formatMs, formatPercent, href, html, type Html } from './html.js';
import { inlineBar, lines, stackedBars } from './svg-charts.js';

type FeedbackSummary = Awaited<ReturnType<typeof feedbackSummary>>;

/**
 * Asks and abstention rate per hour, day or week (by the window's length), top refusal reasons, latency,
 * channels, and what askers said of the replies — of one KB when one is chosen.
 */
export function overviewPage(measured: Overview, window: TimeWindow, kb: string | undefined, feedback?: FeedbackSummary): Html {
  const o = { ...measured, buckets: everyBucket(measured.buckets, window) };
  return html` ${windowForms(window, kb)}
    ${totalCards(o.totals, feedback)}
    ${o.totals.asks === 0 ? html`<p class="muted">No asks in this window yet.</p>` : charts(o.buckets, window)}
    <h2>Top refusal reasons</h2>
    ${reasonsTable(o.reasons, kb)}
    <h2>Channels</h2>
    ${channelsTable(o.channels, kb)}`;
}

/** The window's choices: the last hours or days, or a date range; and what the charts count per. */
function windowForms(window: TimeWindow, kb: string | undefined): Html {
  return html`<form class="filters" method="get" action="/">
      ${kb ? html`<input type="hidden" name="kb" value="${kb}" />` : ''}
      <label
        >Window<select name="days">
          ${WINDOW_DAYS.map(
            (d) =>
              html`<option value="${d}" ${d === window.days ? html` selected` : ''}>
                ${d <= 2 ? `last ${d * 24} hours` : `last ${d} days`}
              </option>`,
          )}
        </select></label
      ><button type="submit">Show</button>
    </form>
    <form class="filters" method="get" action="/">
      ${kb ? html`<input type="hidden" name="kb" value="${kb}" />` : ''}
      <label>From<input type="date" name="from" value="${window.fromDay}" data-testid="from" /></label>
      <label>To<input type="date" name="to" value="${window.toDay}" data-testid="to" /></label>
      <button type="submit">Show range</button>
      <span class="muted" data-testid="bucket">per ${window.bucket}${kb ? html` · knowledge base <strong>${kb}</strong>` : ' · all knowledge bases'}</span>
    </form>`;
}

/** The window's totals: asks, answered, refused, the abstention rate, latency, and what askers said. */
function totalCards(totals: Overview['totals'], feedback: FeedbackSummary | undefined): Html {
  const rate = totals.asks > 0 ? totals.abstained / totals.asks : null;
  return html`<div class="cards">
      <div class="card">
        <div class="value" data-testid="asks-total">${totals.asks}</div>
        <div class="label">asks</div>
      </div>
      <div class="card">
        <div class="value" data-testid="answered-total">${totals.answered}</div>
        <div class="label">answered</div>
      </div>
      <div class="card">
        <div class="value" data-testid="abstained-total">${totals.abstained}</div>
        <div class="label">refused</div>
      </div>
      <div class="card">
        <div class="value">${formatPercent(rate)}</div>
        <div class="label">abstention rate</div>
      </div>
      <div class="card">
        <div class="value">${formatMs(totals.p50)}</div>
        <div class="label">latency p50</div>
      </div>
      <div class="card">
        <div class="value">${formatMs(totals.p95)}</div>
        <div class="label">latency p95</div>
      </div>
      ${feedback ? feedbackCards(feedback) : ''}
    </div>`;
}

/** How many replies askers judged, and how. */
function feedbackCards(feedback: FeedbackSummary): Html {
  return html`<div class="card">
                <div class="value" data-testid="feedback-rate">${formatPercent(feedback.replies > 0 ? feedback.rate : null)}</div>
                <div class="label">
                  feedback rate (<span data-testid="feedback-replies">${feedback.withFeedback} of ${feedback.replies}</span> Slack and Teams
                  replies: the only ones with 👍/👎 buttons)
                </div>
              </div>
              <div class="card">
                <div class="value">
                  <span class="pass" data-testid="feedback-helpful">${feedback.helpful}</span> /
                  <span class="fail" data-testid="feedback-not-helpful">${feedback.notHelpful}</span>
                </div>
                <div class="label">helpful / not helpful</div>
              </div>`;
}

/** Asks (answered and refused), the abstention rate and latency, per hour, day or week of the window. */
function charts(buckets: readonly BucketRow[], window: TimeWindow): Html {
  const labels = buckets.map((b) => bucketLabel(Date.parse(b.start), window.bucket));
  const per = window.bucket;
  // "11-24 08:00" is twice as wide as "11-24": fewer of them fit under a chart.
  const maxLabels = window.bucket === 'hour' ? 8 : 12;
  return html` <h2>Asks per ${per}</h2>
            <div class="panel">
              ${stackedBars({
                title: `Asks per ${per}, answered and refused`,
                labels,
                maxLabels,
                series: [
                  { name: 'answered', values: buckets.map((d) => d.answered), className: 's-answer' },
                  { name: 'refused', values: buckets.map((d) => d.abstained), className: 's-abstain' },
                ],
              })}
            </div>
            <h2>Abstention rate per ${per}</h2>
            <div class="panel">
              ${lines({ title: `Abstention rate per ${per}`, labels, maxLabels, yMax: 1, format: (v) => `${Math.round(v * 100)}%`, series: [{ name: 'refused / asked', values: buckets.map((d) => (d.answered + d.abstained > 0 ? d.abstained / (d.answered + d.abstained) : null)), className: 's-1' }] })}
            </div>
            <h2>Latency per ${per}</h2>
            <div class="panel">
              ${lines({
                title: `Ask latency per ${per} (ms)`,
                labels,
                maxLabels,
                format: (v) => formatMs(v),
                series: [
                  { name: 'p50', values: buckets.map((d) => d.p50), className: 's-0' },
                  { name: 'p95', values: buckets.map((d) => d.p95), className: 's-3' },
                ],
              })}
            </div>`;
}

/** The most given refusal reasons, each a link to its refusals. */
function reasonsTable(reasons: Overview['reasons'], kb: string | undefined): Html {
  if (reasons.length === 0) return html`<p class="muted">No refusals.</p>`;
  const maxReason = Math.max(1, ...reasons.map((r) => r.n));
  return html`<div class="panel">
            <table data-testid="reasons">
              <thead>
                <tr>
                  <th>reason</th>
                  <th class="num">refusals</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${reasons.map(
                  (r) =>
                    html`<tr>
                      <td><a class="mono" href="${href('/interactions', { decision: 'abstain', reason: r.reason, kb })}">${r.reason}</a></td>
                      <td class="num">${r.n}</td>
                      <td>${inlineBar(r.n, maxReason)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`;
}

/** Asks per channel, each a link to its interactions. */
function channelsTable(channels: Overview['channels'], kb: string | undefined): Html {
  return html`<div class="panel">
      <table>
        <thead>
          <tr>
            <th>channel</th>
            <th class="num">asks</th>
          </tr>
        </thead>
        <tbody>
          ${channels.map(
            (c) =>
              html`<tr>
                <td><a href="${href('/interactions', { channel: c.channel, kb })}">${c.channel}</a></td>
                <td class="num">${c.n}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** Every bucket of the window, oldest first, with zero asks where none were made: the charts keep their time axis. */
function everyBucket(rows: readonly BucketRow[], window: TimeWindow): BucketRow[] {
  const byStart = new Map(rows.map((r) => [r.start.slice(0, 13), r]));
  return bucketStarts(window.from.getTime(), window.to.getTime(), window.bucket).map((t) => {
    const start = new Date(t).toISOString();
    return byStart.get(start.slice(0, 13)) ?? { start, answered: 0, abstained: 0, p50: null, p95: null };
  });
}
