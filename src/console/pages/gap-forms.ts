import { MAX_EXPERT_ANSWER_CHARS } from '../../kb/expert-answer-text.js';
import type { AnswerPreview } from '../console-gaps.js';
import { csrfInput } from './csrf.js';
import { html, type Html } from './html.js';

/** What the viewer may do with a KB's gaps: act as its expert (with the page's CSRF token), or only read, and why. */
export interface GapViewer {
  readonly expert: boolean;
  readonly csrf: string | null;
  /** Why the viewer sees no forms (shown to non-experts). */
  readonly whyNot: string;
}

/**
 * The expert's forms on an open or asked gap: an answer (previewed before it is added, POST
 * /gaps/ID/answer with step=preview) and "Not for the KB" (POST /gaps/ID/dismiss). Others read why they
 * have none; a closed gap has none.
 */
export function gapActions(gapId: number, state: string, viewer: GapViewer, text = ''): Html | '' {
  if (state === 'answered' || state === 'out_of_scope') return '';
  if (!viewer.expert)
    return html`<p class="muted" data-testid="gap-not-expert">
      ${viewer.whyNot} Experts can also answer from the question’s post in Slack or Teams, or with
      <span class="mono">candor gaps answer ${gapId} --text … --as NAME</span>.
    </p>`;
  return html`<div class="gap-actions" data-testid="gap-actions">
    <form method="post" action="/gaps/${gapId}/answer">
      ${csrfInput(viewer.csrf)}<input type="hidden" name="step" value="preview" />
      <label>Answer (becomes a fact of the KB)<textarea name="text" required maxlength="${MAX_EXPERT_ANSWER_CHARS}" rows="3" data-testid="gap-answer-input">${text}</textarea></label>
      <button type="submit" data-testid="gap-preview">Preview the fact</button>
    </form>
    <form method="post" action="/gaps/${gapId}/dismiss">
      ${csrfInput(viewer.csrf)}
      <button type="submit" class="danger" data-testid="gap-dismiss">Not for the KB</button>
    </form>
  </div>`;
}

/** The fact an answer would add, with Confirm (step=confirm, the same text) and the text to change it. */
export function answerPreview(gapId: number, preview: AnswerPreview, viewer: GapViewer): Html {
  return html`<div class="panel preview" data-testid="gap-preview-panel">
    <h2>The new fact, before it is added</h2>
    <p class="reply" data-testid="gap-preview-fact">${preview.text}</p>
    <p class="muted">
      A fact of “${preview.kb}”, source <span class="mono" data-testid="gap-preview-source">${preview.source}</span>, by
      ${preview.by}; found by its text and by the question “${preview.question}”; cited as “${preview.cited}”. It is used from the
      next question on, and the askers waiting on this gap are told once.
    </p>
    <form method="post" action="/gaps/${gapId}/answer">
      ${csrfInput(viewer.csrf)}<input type="hidden" name="step" value="confirm" /><input type="hidden" name="text" value="${preview.text}" />
      <button type="submit" data-testid="gap-confirm">Add this fact</button>
    </form>
  </div>
  <h2>Change it</h2>
  ${gapActions(gapId, 'open', viewer, preview.text)}`;
}
