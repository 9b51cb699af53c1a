import type { ExpertCard } from '../../gaps/expert-types.js';
import type { AnswerPreview, GapRefusal } from '../console-gaps.js';
import { answerPreview, gapActions, type GapViewer } from './gap-forms.js';
import { GAP_STATE_TEXT } from './gaps-page.js';
import { formatTime, href, html, type Html } from './html.js';

/** What the last action on a gap did (after its redirect), or why it was refused; and an answer being previewed. */
export interface GapOutcome {
  readonly notice?: 'answered' | 'dismissed' | undefined;
  readonly error?: string | undefined;
  readonly preview?: AnswerPreview | undefined;
  /** The text to put back in the answer box (a refused answer). */
  readonly text?: string | undefined;
}

/**
 * One gap (`/gaps/ID`): its question, state, what the bot said, the closest facts, the answer once there is
 * one, its refusals, and for the KB's console experts the forms to answer it or mark it not for the KB.
 */
export function gapPage(card: ExpertCard, refusals: readonly GapRefusal[], viewer: GapViewer, outcome: GapOutcome = {}): Html {
  return html`<p><a href="${href('/gaps', { kb: card.kb })}#gap-${card.gapId}">← KB gaps of “${card.kb}”</a></p>
    ${notice(card, outcome.notice)}
    ${outcome.error ? html`<p class="error" role="alert" data-testid="gap-error">${outcome.error}</p>` : ''}
    <div class="panel">
      <p data-testid="gap-question" class="reply">${card.question}</p>
      <p>
        <span class="mono" data-testid="gap-id">gap ${card.gapId}</span>
        <span class="badge state-${card.state}" data-testid="gap-state">${GAP_STATE_TEXT[card.state]}</span> · knowledge base
        “${card.kb}”${card.requests > 0 ? html` · ${card.requests} asked for an expert` : ''}${card.closedBy ? html` · closed by <span data-testid="gap-closed-by">${card.closedBy}</span>` : ''}
      </p>
      ${card.reply ? html`<p class="muted">The bot said: “${card.reply}”</p>` : ''}
      ${
        card.answer
          ? html`<div class="expert-answer" data-testid="gap-answer">
              <p class="reply" data-testid="gap-answer-text">${card.answer.text}</p>
              <p class="muted">
                fact <a href="${href('/facts', { kb: card.kb, source: 'expert', all: 1 })}#fact-${card.answer.factId}" data-testid="gap-fact">${card.answer.factId}</a>
                · by ${card.answer.by ?? 'an expert'}
              </p>
            </div>`
          : ''
      }
    </div>
    ${
      outcome.preview
        ? answerPreview(card.gapId, outcome.preview, viewer)
        : html`${card.state === 'answered' || card.state === 'out_of_scope' ? '' : html`<h2>Close it</h2>`}
          ${gapActions(card.gapId, card.state, viewer, outcome.text)}`
    }
    ${nearby(card)}
    <h2>Its refusals</h2>
    <ul data-testid="gap-refusals">
      ${refusals.map(
        (r) =>
          html`<li>
            <a href="/interactions/${r.interactionId}">${r.question}</a> <span class="muted">${r.channel} · ${formatTime(r.at)}</span>
          </li>`,
      )}
    </ul>`;
}

function notice(card: ExpertCard, done: GapOutcome['notice']): Html | '' {
  if (done === 'answered' && card.answer)
    return html`<p class="notice" role="status" data-testid="gap-notice">
      Added as fact ${card.answer.factId}: the bot answers with it from now on, and the askers waiting on this gap are told.
    </p>`;
  if (done === 'dismissed' && card.state === 'out_of_scope')
    return html`<p class="notice" role="status" data-testid="gap-notice">
      Marked “not for the KB”: the askers waiting on this gap are told it is outside what the knowledge base covers.
    </p>`;
  return '';
}

function nearby(card: ExpertCard): Html | '' {
  if (card.nearby.length === 0) return '';
  return html`<h2>The closest facts</h2>
    <ul data-testid="gap-nearby">
      ${card.nearby.map((f) => html`<li>${f.text} <span class="muted">(${f.source})</span></li>`)}
    </ul>`;
}
