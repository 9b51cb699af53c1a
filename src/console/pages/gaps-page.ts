import type { GapReport, GapReportGroup, GapState } from '../../gaps/kb-gaps.js';
import { gapActions, type GapViewer } from './gap-forms.js';
import { formatPercent, formatTime, href, html, type Html } from './html.js';
import { inlineBar } from './svg-charts.js';

export const GAP_STATE_TEXT: Readonly<Record<GapState, string>> = {
  open: 'open',
  asked: 'asked experts',
  answered: 'answered',
  out_of_scope: 'out of scope',
};
const STATES = Object.keys(GAP_STATE_TEXT) as GapState[];

/**
 * Refused questions grouped into gaps, largest first, each with its state
 * (open, asked, answered with the expert fact, out of scope): what a KB owner
 * could add, and what experts closed (the same report as `candor report gaps`).
 */
export function gapsPage(
  report: GapReport | null,
  kbs: readonly string[],
  kb: string,
  days: number,
  state?: GapState,
  viewer?: GapViewer,
): Html {
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
    <label
      >State<select name="state">
        <option value="">any</option>
        ${STATES.map((s) => html`<option value="${s}" ${s === state ? html` selected` : ''}>${GAP_STATE_TEXT[s]}</option>`)}
      </select></label
    >
    <button type="submit">Show</button>
  </form>`;
  if (!report)
    return html`${form}
      <p class="muted">There is no knowledge base named “${kb}” yet.</p>`;
  const shown = state ? report.groups.filter((g) => g.state === state) : report.groups;
  const max = Math.max(1, ...shown.map((g) => g.count));
  return html`${form}
    <p data-testid="gaps-summary">
      ${report.refusals} refusals for lack of knowledge in “${report.kb.name}” (version ${report.kb.version}) in the last ${report.days}
      days: ${report.distinctQuestions} distinct questions in ${report.groups.length} gaps${
        sharedTopics(report).length > 0 ? `, ${sharedTopics(report).length} topics grouping several` : ''
      }.
      <a href="${href('/interactions', { decision: 'abstain', kb: report.kb.name })}">Every refusal</a> ·
      <a href="${href('/facts', { kb: report.kb.name, source: 'expert' })}">Expert facts</a
      >${report.failures > 0 ? html` <span class="muted">${report.failures} more were fail-closed refusals (the store or model was down): faults, not gaps.</span>` : ''}
    </p>
    <div class="cards" data-testid="gap-states">
      ${STATES.map(
        (s) =>
          html`<div class="card">
            <div class="value" data-testid="state-count-${s}">${report.states[s]}</div>
            <div class="label"><a href="${href('/gaps', { kb: report.kb.name, days: report.days, state: s })}">${GAP_STATE_TEXT[s]}</a></div>
          </div>`,
      )}
      <div class="card">
        <div class="value" data-testid="answered-share">${formatPercent(report.refusals === 0 ? null : report.answeredShare)}</div>
        <div class="label">of these refusals answered by experts</div>
      </div>
    </div>
    ${state ? '' : topicList(report)}
    ${shown.length === 0 && state ? html`<p class="muted">No gap is ${GAP_STATE_TEXT[state]} in this window.</p>` : ''}
    ${shown.map((g) => gapSection(g, report.kb.name, max, viewer))}`;
}

/** A topic of one gap only repeats that gap: the page shows topics that group at least this many. */
export const MIN_TOPIC_GAPS = 2;

/** The topics worth a KB owner's page: those that group several gaps. */
function sharedTopics(report: GapReport): GapReport['topics'] {
  return report.topics.filter((t) => t.gapIds.length >= MIN_TOPIC_GAPS);
}

/** The gaps by subject: what a KB owner could write one page about (a topic of one gap is that gap: not listed). */
function topicList(report: GapReport): Html {
  const topics = sharedTopics(report);
  if (report.groups.length === 0) return html``;
  if (topics.length === 0)
    return html`<p class="muted" data-testid="no-gap-topics">No topic groups two or more gaps yet: each gap below is a subject of its own.</p>`;
  const stateOf = new Map(report.groups.map((g) => [g.id, g.state]));
  const max = Math.max(1, ...topics.map((t) => t.count));
  return html`<h2>By topic</h2>
    <p class="muted">Topics that group two or more gaps, named by the words their questions share.</p>
    <ul class="topics">
      ${topics.map(
        (t) =>
          html`<li data-testid="gap-topic-group">
            <span data-testid="topic-count">${t.count}</span> × <span data-testid="topic-name">${t.topic}</span> ${inlineBar(t.count, max)}
            <span class="muted"
              >${t.questions} question${t.questions === 1 ? '' : 's'} in
              ${t.gapIds.map(
                (id, i) => html`${i > 0 ? ', ' : ''}<a href="#gap-${id}">gap ${id}</a> (${GAP_STATE_TEXT[stateOf.get(id) ?? 'open']})`,
              )}</span
            >
          </li>`,
      )}
    </ul>
    <h2>Gaps</h2>`;
}

function gapSection(g: GapReportGroup, kb: string, max: number, viewer: GapViewer | undefined): Html {
  return html`<section class="gap" data-testid="gap-group" id="gap-${g.id}">
    <h3>
      <span data-testid="gap-count">${g.count}</span> × <span data-testid="gap-topic">${g.topic}</span> ${inlineBar(g.count, max)}
    </h3>
    <p>
      ${viewer ? html`<a class="mono" href="/gaps/${g.id}" data-testid="gap-id">gap ${g.id}</a>` : html`<span class="mono" data-testid="gap-id">gap ${g.id}</span>`}
      <span class="badge state-${g.state}" data-testid="gap-state">${GAP_STATE_TEXT[g.state]}</span>
      · <span data-testid="gap-askers">${g.askers}</span> asker${g.askers === 1 ? '' : 's'}${
        g.apiAskers > 0 ? html` (<span data-testid="gap-api-askers">${g.apiAskers}</span> API)` : ''
      }${g.requests > 0 ? html` · ${g.requests} asked for an expert` : ''}
      · first asked <span data-testid="gap-first-asked">${formatTime(g.firstAsked)}</span> · last asked
      <span data-testid="gap-last-asked">${formatTime(g.lastAsked)}</span>
    </p>
    <p class="muted">
      ${g.questions} distinct question${g.questions === 1 ? '' : 's'} ·
      ${Object.entries(g.reasons)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ')}
      ${g.state === 'asked' || g.state === 'answered' ? html` · experts were asked: “${g.question}”` : ''}
    </p>
    ${reopenedNote(g, kb)} ${closure(g, kb, viewer)}
    <ul>
      ${g.examples.map((e) => html`<li><a href="/interactions/${e.interactionId}">${e.question}</a>${e.times > 1 ? html` <span class="muted">(${e.times}×)</span>` : ''}</li>`)}
    </ul>
  </section>`;
}

/** How a gap was closed (the expert's answer and its fact), or how an expert can close it (the forms, for its console experts). */
function closure(g: GapReportGroup, kb: string, viewer: GapViewer | undefined): Html {
  if (g.state === 'answered' && g.answer)
    return html`<div class="expert-answer" data-testid="gap-answer">
      <p class="reply" data-testid="gap-answer-text">${g.answer.text}</p>
      <p class="muted">
        fact <a href="${href('/facts', { kb, source: 'expert', all: 1 })}#fact-${g.factId}" data-testid="gap-fact">${g.factId}</a> · by
        <span data-testid="gap-answer-by">${g.answer.by ?? 'an expert'}</span>${g.answer.at ? html` · ${formatTime(g.answer.at)}` : ''}
      </p>
    </div>`;
  if (g.state === 'out_of_scope')
    return html`<p class="muted" data-testid="gap-closed">Marked “not for the KB”${g.closedAt ? html` on ${formatTime(g.closedAt)}` : ''}.</p>`;
  if (viewer)
    return html`${g.state === 'asked' ? html`<p class="muted">Waiting for an expert.</p>` : ''}${gapActions(g.id, g.state, viewer)}`;
  return html`<p class="muted">
    ${g.state === 'asked' ? 'Waiting for an expert. ' : ''}Experts answer from the question’s post in Slack or Teams, or with
    <span class="mono">candor gaps answer ${g.id} --text … --as NAME</span>.
  </p>`;
}

/** Why a gap an expert had answered is open again: its answer fell due for re-confirmation, or was retired. */
function reopenedNote(g: GapReportGroup, kb: string): Html | '' {
  if (!g.reopened) return '';
  const since = g.reopened.at ? html` on ${formatTime(g.reopened.at)}` : '';
  if (g.reopened.because === 'fact_retired')
    return html`<p class="notice" data-testid="gap-reopened">Open again${since}: the fact that answered it was retired.</p>`;
  return html`<p class="notice" data-testid="gap-reopened">
    Open again${since}: its answer,
    <a href="${href('/facts', { kb, source: 'expert' })}#fact-${g.factId}">fact ${g.factId}</a>, is due for re-confirmation and is
    not used until an expert re-confirms it (or answers again).
  </p>`;
}
