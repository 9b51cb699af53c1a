import type { CloseOutcome, ExpertCard } from '../../gaps/expert-types.js';
import { CandorError } from '../../kernel/errors.js';
import type { ConsoleGaps } from '../console-gaps.js';
import type { ConsoleHandler, ConsoleRequest } from './console-context.js';
import { redirect } from './console-http.js';
import type { GapViewer } from './gap-forms.js';
import { gapPage, type GapOutcome } from './gap-page.js';
import { html } from './html.js';

/** `/gaps/ID`, and the expert's form posts `/gaps/ID/answer` and `/gaps/ID/dismiss`. */
export const GAP_PATH = /^\/gaps\/(\d{1,9})(?:\/(answer|dismiss))?$/;

/** What the gap list's forms need of a viewer: whether they are the KB's console expert, else why not. */
export function gapViewer(gaps: ConsoleGaps, r: ConsoleRequest, kb: string): GapViewer {
  return { expert: gaps.expertOf(kb, r.user) !== null, csrf: r.csrf, whyNot: gaps.whyNot(kb, r.user) };
}

/**
 * A gap's page, and answering it or marking it not for the KB through the experts desk (the same service as
 * Slack, Teams and `candor gaps`: one fact, one state change, askers told once). An answer is shown as the
 * fact it would add (step=preview) before it is added (step=confirm). Only the KB's `console:NAME` experts
 * post; anyone else gets 403 and nothing is stored.
 */
export function gapRoutes(gaps: ConsoleGaps): ConsoleHandler {
  return async (r) => {
    const match = GAP_PATH.exec(r.url.pathname);
    if (!match) return false;
    const gapId = Number(match[1]);
    const action = match[2];
    const card = await gaps.card(gapId);
    if (!card) return r.page('Not found', '/gaps', html`<p class="muted">There is no gap ${gapId}.</p>`, { status: 404 });
    if (!r.form) return action ? redirect(r.res, `/gaps/${gapId}`) : show(r, card, { notice: readNotice(r.url.searchParams) });
    if (!action) return false;
    const expert = gaps.expertOf(card.kb, r.user);
    if (!expert) return show(r, card, { error: gaps.whyNot(card.kb, r.user) }, 403);
    if (action === 'dismiss') return closed(r, card, await gaps.dismiss({ gapId, expert }));
    const text = r.form.get('text') ?? '';
    try {
      const preview = gaps.preview(card, expert, text);
      if (r.form.get('step') !== 'confirm') return show(r, card, { preview });
      return closed(r, card, await gaps.answer({ gapId, expert, text: preview.text }), text);
    } catch (error) {
      if (!(error instanceof CandorError) || error.status >= 500) throw error;
      return show(r, card, { error: error.message, text }, error.status);
    }
  };

  async function show(r: ConsoleRequest, card: ExpertCard, outcome: GapOutcome, status = 200): Promise<true> {
    const refusals = await gaps.refusals(card.gapId);
    return r.page(`Gap ${card.gapId}`, '/gaps', gapPage(card, refusals, gapViewer(gaps, r, card.kb), outcome), { status, kb: card.kb });
  }

  /** After the desk acted: back to the gap's page (303), or the page again saying why nothing changed. */
  async function closed(r: ConsoleRequest, card: ExpertCard, outcome: CloseOutcome, text?: string): Promise<true> {
    switch (outcome.kind) {
      case 'answered':
      case 'dismissed':
        return redirect(r.res, `/gaps/${card.gapId}?done=${outcome.kind}`);
      case 'already_closed': {
        const now = (await gaps.card(card.gapId)) ?? card;
        const what = outcome.state === 'answered' ? `answered${now.answer ? ` (fact ${now.answer.factId})` : ''}` : 'marked not for the KB';
        return show(
          r,
          now,
          { error: `Gap ${card.gapId} was already ${what}${outcome.by ? ` by ${outcome.by}` : ''}; nothing was added or changed.` },
          409,
        );
      }
      case 'not_an_expert':
        return show(r, card, { error: gaps.whyNot(card.kb, r.user), text }, 403);
      case 'no_gap':
        return r.page('Not found', '/gaps', html`<p class="muted">There is no gap ${card.gapId}.</p>`, { status: 404 });
    }
  }
}

function readNotice(params: URLSearchParams): GapOutcome['notice'] {
  const done = params.get('done');
  return done === 'answered' || done === 'dismissed' ? done : undefined;
}
