import type { AnswerabilityView, EvidenceView } from '../../ask/decision.js';
import { traceLink } from '../../config/console-settings.js';
import type { Verdict } from '../../core/gate/types.js';
import { FEEDBACK_REASON_TEXT, type feedbackOn } from '../../feedback/asker-feedback.js';
import type { GapState } from '../../gaps/expert-types.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { findInteraction } from '../console-queries.js';
import { decisionView } from './decision-view.js';
import { GAP_STATE_TEXT } from './gaps-page.js';
import { formatMs, formatTime, html, type Html } from './html.js';
import { nearMissesView } from './near-misses-view.js';

type Feedback = Awaited<ReturnType<typeof feedbackOn>>;
type Found = NonNullable<Awaited<ReturnType<typeof findInteraction>>>;

/**
 * One interaction: the question, the reply, every layer's verdict, the answerability score and evidence,
 * the trace id, what its askers said of it (askers as hashed ids only) and its review labels.
 */
export function interactionPage(
  found: Found,
  labels: readonly CurrentLabel[],
  feedback: Feedback = [],
  traceUrl?: string,
  gap?: { id: number; state: GapState } | null,
): Html {
  const i = found.interaction;
  return html` ${detailsTable(found, traceUrl, gap ?? null)}
    ${decisionView({
      decision: i.decision,
      text: i.answer,
      reasons: i.verdicts as Verdict[],
      evidence: i.evidence as EvidenceView[],
      answerability: i.answerability as AnswerabilityView | null,
      confidence: i.confidence,
      generated: i.model !== null,
    })}
    ${i.decision === 'abstain' ? nearMissesView(i.considered ?? null) : ''}
    ${feedbackSection(feedback)}
    ${found.sampleId ? labelsSection(labels) : ''}`;
}

/** The question (and what was typed, for a follow-up), when, where, how fast, the trace, the model and the review sample. */
function detailsTable(found: Found, traceUrl: string | undefined, gap: { id: number; state: GapState } | null): Html {
  const i = found.interaction;
  return html`<div class="panel">
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
          <td class="mono">${traceCell(i.traceId, traceUrl)}</td>
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
                <td><a href="/review/${found.sampleId}">sample ${found.sampleId}</a> (${found.stratum})</td>
              </tr>`
            : ''
        }
        ${
          gap
            ? html`<tr>
                <th>KB gap</th>
                <td><a href="/gaps/${gap.id}" data-testid="interaction-gap">gap ${gap.id}</a> (${GAP_STATE_TEXT[gap.state]})</td>
              </tr>`
            : ''
        }
      </table>
    </div>`;
}

/** A sampled interaction's review labels, and who gave each. */
function labelsSection(labels: readonly CurrentLabel[]): Html {
  return html`<h2>Review labels</h2>
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
            }`;
}

/** The trace id, a link (new tab, no referrer) when CANDOR_TRACE_URL names where traces are read. */
function traceCell(traceId: string | null, template: string | undefined): Html | string {
  if (!traceId) return '–';
  const url = traceLink(template, traceId);
  return url
    ? html`<a href="${url}" target="_blank" rel="noopener noreferrer" data-testid="trace-id">${traceId}</a>`
    : html`<span data-testid="trace-id">${traceId}</span>`;
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
