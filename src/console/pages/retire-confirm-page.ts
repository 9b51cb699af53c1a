import type { ExpertFactView } from '../../gaps/expert-facts-list.js';
import { csrfInput } from './csrf.js';
import { formatTime, href, html, type Html } from './html.js';

/**
 * The step between Retire and retiring: the fact, what retiring it does, and a form of its own (CSRF token,
 * `confirmed=yes`) that retires it, or a way back. The console runs no script, so a confirm() dialog is not
 * an option; a page is.
 */
export function retireConfirmPage(fact: ExpertFactView, kb: string, all: boolean, csrf: string | null): Html {
  const back = href('/facts', { kb, source: 'expert', all: all ? 1 : undefined });
  return html`<section class="gap" data-testid="retire-confirm">
    <h2>Retire fact ${fact.id}?</h2>
    <p class="reply" data-testid="retire-fact-text">${fact.text}</p>
    <p class="muted">
      by ${fact.author ?? 'an expert'} <span class="mono">(${fact.source})</span>${fact.confirmedAt ? html` · confirmed ${formatTime(fact.confirmedAt)}` : ''}
    </p>
    <p>
      Retiring it makes a new version of “${kb}” without it: the bot stops answering with it at once, and a KB gap it answers
      is open again. Answers already given keep naming it. It cannot be taken back; an expert can answer the question again.
    </p>
    <div class="fact-actions">
      <form method="post" action="/facts">
        ${csrfInput(csrf)}<input type="hidden" name="action" value="retire" /><input type="hidden" name="confirmed" value="yes" /><input
          type="hidden"
          name="fact"
          value="${fact.id}"
        /><input type="hidden" name="kb" value="${kb}" />${all ? html`<input type="hidden" name="all" value="1" />` : ''}
        <button type="submit" class="danger" data-testid="fact-retire-confirm">Retire fact ${fact.id}</button>
      </form>
      <a href="${back}#fact-${fact.id}" data-testid="fact-retire-cancel">Keep it</a>
    </div>
  </section>`;
}
