import type { GapReport } from '../../../report/kb-gaps.js';
import { formatTime, href, html, type Html } from './html.js';
import { inlineBar } from './svg-charts.js';

/** Refused questions grouped by topic, largest first: what a KB owner could add (the same report as `candor report gaps`). */
export function gapsPage(report: GapReport | null, kbs: readonly string[], kb: string, days: number): Html {
  const form = html`<form class="filters" method="get" action="/gaps">
    <label
      >Knowledge base<select name="kb">
        ${kbs.map((k) => html`<option value="${k}" ${k === kb ? html` selected` : ''}>${k}</option>`)}
      </select></label
    >
    <label
      >Window<select name="days">
        ${[7, 30, 90].map((d) => html`<option value="${d}" ${d === days ? html` selected` : ''}>last ${d} days</option>`)}
      </select></label
    >
    <button type="submit">Show</button>
  </form>`;
  if (!report)
    return html`${form}
      <p class="muted">There is no knowledge base named “${kb}” yet.</p>`;
  const max = Math.max(1, ...report.groups.map((g) => g.count));
  return html`${form}
    <p data-testid="gaps-summary">
      ${report.refusals} refusals for lack of knowledge in “${report.kb.name}” (version ${report.kb.version}) in the last ${report.days}
      days: ${report.distinctQuestions} distinct questions in ${report.groups.length} topics.
      <a href="${href('/interactions', { decision: 'abstain', kb: report.kb.name })}">Every refusal</a
      >${report.failures > 0 ? html` <span class="muted">${report.failures} more were fail-closed refusals (the store or model was down): faults, not gaps.</span>` : ''}
    </p>
    ${report.groups.map(
      (g) =>
        html`<section class="gap" data-testid="gap-group">
          <h3>
            <span data-testid="gap-count">${g.count}</span> × <span data-testid="gap-topic">${g.topic}</span> ${inlineBar(g.count, max)}
          </h3>
          <p class="muted">
            ${g.questions} distinct question${g.questions === 1 ? '' : 's'} ·
            ${Object.entries(g.reasons)
              .map(([code, n]) => `${code} ${n}`)
              .join(', ')}
            · last asked ${formatTime(g.lastAsked)}
          </p>
          <ul>
            ${g.examples.map((e) => html`<li><a href="/interactions/${e.interactionId}">${e.question}</a>${e.times > 1 ? html` <span class="muted">(${e.times}×)</span>` : ''}</li>`)}
          </ul>
        </section>`,
    )}`;
}
