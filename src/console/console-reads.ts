import type { KnowledgeIndexCache } from '../kb/knowledge-index.js';
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
}

/** The production reads. */
export function createConsoleReads(db: Db, indexes: KnowledgeIndexCache): ConsoleReads {
  return {
    overview: (since) => overview(db, since),
    listInteractions: (filter, page) => listInteractions(db, filter, page),
    filterChoices: () => filterChoices(db),
    findInteraction: (id) => findInteraction(db, id),
    reviewSamples: () => reviewSamplesPage(db),
    agreementHistory: () => agreementHistory(db),
    labelsOf: (sampleIds) => currentLabels(db, { sampleIds }),
    gaps: (options) => kbGapReport(db, indexes, options),
  };
}
