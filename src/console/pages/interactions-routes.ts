import type { ConsoleGaps } from '../console-gaps.js';
import type { ConsoleReads } from '../console-reads.js';
import type { ConsoleHandler } from './console-context.js';
import { interactionFilter, interactionParams, pageNumber } from './console-filters.js';
import { html } from './html.js';
import { interactionPage } from './interaction-page.js';
import { streamExport } from './interactions-export.js';
import { EXPORT_CAP, interactionsPage } from './interactions-page.js';

/**
 * `/interactions` (the list), `/interactions.csv` and `/interactions.jsonl` (its filter exported, streamed)
 * and `/interactions/ID` (one interaction, with what a refusal nearly answered from, and a refusal's gap).
 */
export function interactionsRoutes(deps: {
  reads: ConsoleReads;
  traceUrl?: string | undefined;
  now: () => number;
  gaps?: ConsoleGaps | undefined;
}): ConsoleHandler {
  return async (r) => {
    const path = r.url.pathname;
    if (path === '/interactions') {
      const filter = interactionFilter(r.q);
      const page = pageNumber(r.q);
      const [list, choices] = await Promise.all([deps.reads.listInteractions(filter, page), deps.reads.filterChoices()]);
      return r.page('Interactions', '/interactions', interactionsPage(list, choices, filter, interactionParams(r.q), page));
    }
    const format = /^\/interactions\.(csv|jsonl)$/.exec(path)?.[1] as 'csv' | 'jsonl' | undefined;
    if (format) {
      const filter = interactionFilter(r.q);
      return streamExport(r.res, format, deps.reads.exportInteractions(filter, EXPORT_CAP), {
        cap: EXPORT_CAP,
        now: new Date(deps.now()),
        filter,
      });
    }
    const id = /^\/interactions\/(\d{1,15})$/.exec(path)?.[1];
    if (id === undefined) return false;
    const found = await deps.reads.findInteraction(Number(id));
    if (!found) return r.page('Not found', '/interactions', html`<p class="muted">There is no interaction ${id}.</p>`, { status: 404 });
    const [labels, feedback, gap] = await Promise.all([
      found.sampleId ? deps.reads.labelsOf([found.sampleId]) : Promise.resolve([]),
      deps.reads.feedbackOn(found.interaction.id),
      found.interaction.decision === 'abstain' ? deps.gaps?.gapOf(found.interaction.id, found.kb) : null,
    ]);
    return r.page(`Interaction ${found.interaction.id}`, '/interactions', interactionPage(found, labels, feedback, deps.traceUrl, gap));
  };
}
