import type { AnswerabilityView, EvidenceView } from '../../../ask/decision.js';
import type { filterChoices, findInteraction, InteractionFilter, listInteractions } from '../../../console/console-queries.js';
import type { Verdict } from '../../../core/gate/types.js';
import { FEEDBACK_REASON_TEXT, type feedbackOn } from '../../../feedback/asker-feedback.js';
import type { CurrentLabel } from '../../../review/label-store.js';
import { decisionView } from './decision-view.js';
import { formatMs, formatNumber, formatTime, href, html, type Html } from './html.js';

type Listed = Awaited<ReturnType<typeof listInteractions>>;

/** The interaction list with its filters (decision, reason, channel, KB), newest first. */
export function interactionsPage(
  list: Listed,
  choices: Awaited<ReturnType<typeof filterChoices>>,
  filter: InteractionFilter,
  page: number,
): Html {
  const select = (name: keyof InteractionFilter, label: string, values: readonly string[]) =>
    html`<label
      >${label}<select name="${name}">
        <option value="">any</option>
        ${values.map((v) => html`<option value="${v}" ${filter[name] === v ? html` selected` : ''}>${v}</option>`)}
      </select></label
    >`;
  return html` <form class="filters" method="get" action="/interactions">
      ${select('decision', 'Decision', ['answer', 'abstain'])}${select('reason', 'Reason', choices.reasons)}${select('channel', 'Channel', choices.channels)}${select('kb', 'Knowledge base', choices.kbs)}
      <button type="submit">Filter</button>
    </form>
    ${
      list.rows.length === 0
        ? html`<p class="muted">No interactions match.</p>`
        : html`<div class="panel">
            <table data-testid="interactions">
              <thead>
                <tr>
                  <th>#</th>
                  <th>when</th>
                  <th>channel</th>
                  <th>KB</th>
                  <th>question</th>
                  <th>decision</th>
                  <th>reason</th>
                  <th class="num">answerability</th>
                  <th class="num">latency</th>
                </tr>
              </thead>
              <tbody>
                ${list.rows.map(
                  (r) =>
                    html`<tr>
                      <td><a href="/interactions/${r.id}">${r.id}</a></td>
                      <td class="muted">${formatTime(r.createdAt)}</td>
                      <td>${r.channel}</td>
                      <td>${r.kb ?? '–'}${r.kbVersion ? html`<span class="muted"> v${r.kbVersion}</span>` : ''}</td>
                      <td><a href="/interactions/${r.id}">${truncate(r.question, 110)}</a></td>
                      <td class="${r.decision === 'answer' ? 'answer' : 'abstain'}">${r.decision ?? ''}</td>
                      <td class="mono">${r.reason ?? ''}</td>
                      <td class="num">${formatNumber((r.answerability as AnswerabilityView | null)?.score)}</td>
                      <td class="num">${formatMs(r.latencyMs)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    <p>
      ${page > 1 ? html`<a href="${href('/interactions', { ...filter, page: page - 1 })}">← newer</a> ` : ''}${list.more ? html`<a href="${href('/interactions', { ...filter, page: page + 1 })}">older →</a>` : ''}
    </p>`;
}

type Feedback = Awaited<ReturnType<typeof feedbackOn>>;

/**
 * One interaction: the question, the reply, every layer's verdict, the answerability score and evidence,
 * the trace id, what its askers said of it (askers as hashed ids only) and its review labels.
 */
export function interactionPage(
  found: NonNullable<Awaited<ReturnType<typeof findInteraction>>>,
  labels: readonly CurrentLabel[],
  feedback: Feedback = [],
): Html {
  const i = found.interaction;
  return html` <div class="panel">
      <table>
        <tr>
          <th>question</th>
          <td data-testid="question">${i.question}</td>
        </tr>
        ${
          i.typedQuestion
            ? html`<tr>
                <th>typed</th>
                <td data-testid="typed-question">
                  ${i.typedQuestion}
                  <span class="muted">(a follow-up in a thread, ${i.understoodBy === 'rewritten' ? 'rewritten by the model' : "read with the thread's topic"})</span>
                </td>
              </tr>`
            : ''
        }
        <tr>
          <th>when</th>
          <td>${formatTime(i.createdAt)}</td>
        </tr>
        <tr>
          <th>channel</th>
          <td>${i.channel}</td>
        </tr>
        <tr>
          <th>knowledge base</th>
          <td>${found.kb ?? '–'}${i.kbVersion ? ` version ${i.kbVersion}` : ''}</td>
        </tr>
        <tr>
          <th>latency</th>
          <td>${formatMs(i.latencyMs)}</td>
        </tr>
        <tr>
          <th>trace id</th>
          <td class="mono" data-testid="trace-id">${i.traceId ?? '–'}</td>
        </tr>
        ${
          i.model
            ? html`<tr>
                <th>model / prompt</th>
                <td class="mono">${i.model} · ${i.promptVersion ?? ''}</td>
              </tr>`
            : ''
        }
        ${
          found.sampleId
            ? html`<tr>
                <th>review</th>
                <td>sample ${found.sampleId} (${found.stratum})</td>
              </tr>`
            : ''
        }
      </table>
    </div>
    ${decisionView({
      decision: i.decision,
      text: i.answer,
      reasons: i.verdicts as Verdict[],
      evidence: i.evidence as EvidenceView[],
      answerability: i.answerability as AnswerabilityView | null,
      confidence: i.confidence,
      generated: i.model !== null,
    })}
    ${feedbackSection(feedback)}
    ${
      found.sampleId
        ? html`<h2>Review labels</h2>
            ${
              labels.length === 0
                ? html`<p class="muted">Not labelled yet.</p>`
                : html`<div class="panel">
                    <table>
                      <thead>
                        <tr>
                          <th>task</th>
                          <th>label</th>
                          <th>by</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${labels.map(
                          (l) =>
                            html`<tr>
                              <td>${l.task}</td>
                              <td>${l.value}</td>
                              <td class="mono">${l.annotator}</td>
                            </tr>`,
                        )}
                      </tbody>
                    </table>
                  </div>`
            }`
        : ''
    }`;
}

function feedbackSection(feedback: Feedback): Html {
  if (feedback.length === 0)
    return html`<h2>Asker feedback</h2><p class="muted" data-testid="feedback-none">No asker said whether this reply helped.</p>`;
  return html`<h2>Asker feedback</h2>
    <div class="panel">
      <table data-testid="feedback">
        <thead>
          <tr>
            <th>asker (hashed)</th>
            <th>feedback</th>
            <th>reason</th>
            <th>comment</th>
            <th>when</th>
          </tr>
        </thead>
        <tbody>
          ${feedback.map(
            (f) =>
              html`<tr data-testid="feedback-row">
                <td class="mono">${f.asker}</td>
                <td class="${f.kind === 'helpful' ? 'pass' : 'fail'}" data-testid="feedback-kind">${f.kind === 'helpful' ? 'helpful' : 'not helpful'}</td>
                <td data-testid="feedback-reason">${f.reason ? FEEDBACK_REASON_TEXT[f.reason] : ''}</td>
                <td data-testid="feedback-comment">${f.comment ?? ''}</td>
                <td class="muted">${formatTime(f.at)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
