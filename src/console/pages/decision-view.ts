import type { AnswerabilityView, EvidenceView } from '../../ask/decision.js';
import { citationLabel, citeAnswer, type Citation } from '../../channels/chat/cited-sources.js';
import type { Verdict } from '../../core/gate/types.js';
import { formatNumber, html, type Html } from './html.js';
import { inlineBar } from './svg-charts.js';

/** What an interaction row and a fresh Decision share: enough to show why it answered or refused. */
export interface DecisionLike {
  readonly decision: string | null;
  /** The answer, or the refusal the user read. */
  readonly text: string | null;
  readonly reasons: readonly Verdict[];
  readonly evidence: readonly EvidenceView[];
  readonly answerability: AnswerabilityView | null;
  /** 'high' | 'medium' | 'low'; null on interactions recorded before it was kept. */
  readonly confidence?: string | null;
  /** The caveat the user read before the answer; rows do not keep it, so a medium answer without one gets a generic notice. */
  readonly caveat?: string | null;
  /** True when a model wrote the answer: its `[n]` markers name the evidence and are renumbered with the sources. */
  readonly generated?: boolean;
}

/** The reply (with its caveat and sources), every layer's verdict, the answerability score with its strongest pulls, and the evidence. */
export function decisionView(d: DecisionLike, topContributions = 5): Html {
  const answered = d.decision === 'answer';
  const cited = answered ? citeAnswer(d.text ?? '', d.evidence, { markers: d.generated ?? false }) : null;
  const caveat = d.caveat ?? (answered && d.confidence === 'medium' ? 'Answered with a caveat: the confidence was medium.' : null);
  return html` <p>
      <span class="${answered ? 'answer' : 'abstain'}" data-decision="${d.decision ?? ''}"
        >${answered ? 'Answered' : d.decision === 'abstain' ? 'Refused' : (d.decision ?? 'unknown')}</span
      >${d.confidence ? html` <span class="muted" data-testid="confidence">confidence ${d.confidence}</span>` : ''}
    </p>
    ${caveat ? html`<p class="caveat" role="note" data-testid="caveat">⚠ ${caveat}</p>` : ''}
    <div class="reply" data-testid="reply">${cited ? cited.answer : (d.text ?? '')}</div>
    ${cited && cited.citations.length > 0 ? sourcesView(cited.citations) : ''}
    <h2>Layers</h2>
    <div class="panel">
      <table data-testid="layers">
        <thead>
          <tr>
            <th>layer</th>
            <th>verdict</th>
            <th>code</th>
            <th class="num">score</th>
            <th class="num">threshold</th>
            <th>detail</th>
          </tr>
        </thead>
        <tbody>
          ${d.reasons.map(
            (v) =>
              html`<tr>
                <td>${v.layer}</td>
                <td class="${v.pass ? 'pass' : 'fail'}">${v.pass ? 'pass' : 'refuse'}</td>
                <td class="mono">${v.code ?? ''}</td>
                <td class="num">${formatNumber(v.score)}</td>
                <td class="num">
                  ${formatNumber(v.threshold)}${v.thresholdSource ? html` <span class="muted">(${v.thresholdSource})</span>` : ''}
                </td>
                <td>${v.detail}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${d.answerability ? answerabilityView(d.answerability, topContributions) : html`<p class="muted">No answerability score: the gate did not run (the store could not be read).</p>`}
    <h2>Evidence</h2>
    ${
      d.evidence.length === 0
        ? html`<p class="muted">None cited.</p>`
        : html`<div class="panel">
            <table>
              <thead>
                <tr>
                  <th>fact</th>
                  <th>text</th>
                  <th>source</th>
                  <th class="num">score</th>
                </tr>
              </thead>
              <tbody>
                ${d.evidence.map(
                  (e) =>
                    html`<tr>
                      <td class="mono">${e.factId}</td>
                      <td>${e.text}</td>
                      <td class="muted">${e.source}</td>
                      <td class="num">${formatNumber(e.score)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}

/** The sources as people open them: a new tab, no referrer, and only http(s) links (citeAnswer drops the rest). */
function sourcesView(citations: readonly Citation[]): Html {
  return html`<ol class="sources" data-testid="sources">
    ${citations.map(
      (c) =>
        html`<li value="${c.n}">
          ${c.url === null ? citationLabel(c) : html`<a href="${c.url}" target="_blank" rel="noopener noreferrer">${citationLabel(c)}</a>`}
        </li>`,
    )}
  </ol>`;
}

function answerabilityView(a: AnswerabilityView, top: number): Html {
  const pulls = Object.entries(a.contributions)
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]) || x[0].localeCompare(y[0]))
    .slice(0, top);
  const max = Math.max(1e-9, ...pulls.map(([, v]) => Math.abs(v)));
  return html`<h2>Answerability</h2>
    <div class="cards">
      <div class="card">
        <div class="value" data-testid="answerability-score">${formatNumber(a.score)}</div>
        <div class="label">score: P(answerable)</div>
      </div>
      <div class="card">
        <div class="value">${formatNumber(a.threshold)}</div>
        <div class="label">threshold (${a.thresholdSource})</div>
      </div>
      <div class="card">
        <div class="value mono">${a.model}</div>
        <div class="label">model</div>
      </div>
    </div>
    <div class="panel">
      <table data-testid="contributions">
        <thead>
          <tr>
            <th>feature</th>
            <th class="num">value</th>
            <th class="num">pull on the log-odds</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${pulls.map(
            ([name, pull]) =>
              html`<tr>
                <td>${name}</td>
                <td class="num">${formatNumber(a.features[name])}</td>
                <td class="num">${pull > 0 ? '+' : ''}${formatNumber(pull)}</td>
                <td>${inlineBar(pull, max)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <p class="muted">The ${pulls.length} strongest pulls; negative ones push towards refusing.</p>
    </div>`;
}
