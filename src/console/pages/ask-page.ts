import type { Decision } from '../../ask/decision.js';
import { csrfInput } from './csrf.js';
import { decisionView } from './decision-view.js';
import { html, type Html } from './html.js';

/** The ask box: the same ask path as every channel (recorded with channel "console"), and why it answered or refused. */
export function askPage(
  kbs: readonly string[],
  kb: string,
  question: string,
  outcome: { decision?: Decision; error?: string } = {},
  csrf: string | null = null,
): Html {
  const d = outcome.decision;
  return html`<form method="post" action="/ask">
      ${csrfInput(csrf)}
      <label>Question<textarea name="question" required maxlength="10000" data-testid="ask-question">${question}</textarea></label>
      <div class="filters">
        <label
          >Knowledge base<select name="kb">
            ${kbs.map((k) => html`<option value="${k}" ${k === kb ? html` selected` : ''}>${k}</option>`)}
          </select></label
        >
        <button type="submit" data-testid="ask-submit">Ask</button>
      </div>
    </form>
    ${outcome.error ? html`<p class="error" role="alert">${outcome.error}</p>` : ''}
    ${
      d
        ? html`<section data-testid="ask-result">
            ${decisionView({
              decision: d.decision,
              text: d.decision === 'answer' ? d.answer : d.refusal,
              reasons: d.reasons,
              evidence: d.evidence,
              answerability: d.answerability ?? null,
              confidence: d.confidence,
              caveat: d.decision === 'answer' ? d.caveat : null,
              generated: d.generation !== undefined,
            })}
            ${d.nearbyTopics.length > 0 ? html`<p class="muted">Nearby topics the KB covers: ${d.nearbyTopics.join('; ')}</p>` : ''}
            <p class="muted">
              Trace <span class="mono">${d.traceId}</span> · ${d.latencyMs}
              ms${d.interactionId ? html` · <a href="/interactions/${d.interactionId}">interaction ${d.interactionId}</a>` : ''}
            </p>
          </section>`
        : ''
    }`;
}
