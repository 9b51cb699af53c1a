import { feedbackOn, feedbackSummary } from '../feedback/asker-feedback.js';
import { retireFact, reviseExpertFact } from '../kb/expert-facts.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { listExpertFacts, type ExpertFactView } from '../report/expert-facts-list.js';
import { kbGapReport, type GapReport } from '../report/kb-gaps.js';
import { currentLabels, type CurrentLabel } from '../review/label-store.js';
import type { Db } from '../store/open-store.js';
import {
  agreementHistory,
  filterChoices,
  findInteraction,
  listInteractions,
  overview,
  reviewSamplesPage,
  type InteractionFilter,
  type Overview,
} from './console-queries.js';

/**
 * What the console may read: an object of functions over the shared store, so
 * that the HTTP channel holds no database handle (the same seam chat channels have).
 */
export interface ConsoleReads {
  overview(since: Date): Promise<Overview>;
  listInteractions(filter: InteractionFilter, page: number): ReturnType<typeof listInteractions>;
  filterChoices(): ReturnType<typeof filterChoices>;
  findInteraction(id: number): ReturnType<typeof findInteraction>;
  reviewSamples(): ReturnType<typeof reviewSamplesPage>;
  agreementHistory(): ReturnType<typeof agreementHistory>;
  labelsOf(sampleIds: readonly number[]): Promise<CurrentLabel[]>;
  gaps(options: { kb: string; days: number; now: Date }): Promise<GapReport>;
  /** Asker feedback since a time: replies with feedback, helpful and not helpful (the overview). */
  feedbackSummary(since: Date): ReturnType<typeof feedbackSummary>;
  /** Every asker's current feedback on one interaction (askers as hashed ids). */
  feedbackOn(interactionId: number): ReturnType<typeof feedbackOn>;
  expertFacts(options: { kb: string; includeRetired: boolean; now: Date }): Promise<ExpertFactView[]>;
}

/**
 * The console's only writes besides its ask box: retiring, re-confirming and
 * editing expert facts (each a new KB version). `actor` names who did it.
 */
export interface ConsoleFactEdits {
  retire(factId: number, actor: string): Promise<{ kb: string; version: number }>;
  /** Re-confirms a fact as it is (no text) or edits it; returns the fact that replaces it. */
  confirm(factId: number, change: { text?: string | undefined; actor: string; name: string }): Promise<{ factId: number; version: number }>;
}

export interface ConsoleReadOptions {
  /** A KB's reconfirmDays (CANDOR_EXPERTS), for the facts page's due dates. */
  readonly expertDays?: ((kb: string) => number | undefined) | undefined;
}

/** The production reads. */
export function createConsoleReads(db: Db, indexes: KnowledgeIndexCache, options: ConsoleReadOptions = {}): ConsoleReads {
  return {
    overview: (since) => overview(db, since),
    listInteractions: (filter, page) => listInteractions(db, filter, page),
    filterChoices: () => filterChoices(db),
    findInteraction: (id) => findInteraction(db, id),
    reviewSamples: () => reviewSamplesPage(db),
    agreementHistory: () => agreementHistory(db),
    labelsOf: (sampleIds) => currentLabels(db, { sampleIds }),
    gaps: (o) => kbGapReport(db, indexes, o),
    feedbackSummary: (since) => feedbackSummary(db, { since }),
    feedbackOn: (interactionId) => feedbackOn(db, interactionId),
    expertFacts: (o) => listExpertFacts(db, { ...o, reconfirmDays: options.expertDays?.(o.kb) }),
  };
}

/** The production fact edits. */
export function createConsoleFactEdits(db: Db): ConsoleFactEdits {
  return {
    retire: (factId, actor) => retireFact(db, factId, actor),
    confirm: (factId, change) =>
      reviseExpertFact(db, factId, {
        ...(change.text === undefined ? {} : { text: change.text }),
        expert: change.actor,
        name: change.name,
      }),
  };
}
