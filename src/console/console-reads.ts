import { eq } from 'drizzle-orm';

import type { AgreementReport } from '../core/review/agreement-report.js';
import { feedbackOn, feedbackSummary } from '../feedback/asker-feedback.js';
import { listExpertFacts, type ExpertFactView } from '../gaps/expert-facts-list.js';
import { kbGapReport, type GapReport } from '../gaps/kb-gaps.js';
import { retireFact, reviseExpertFact } from '../kb/expert-facts.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { currentLabels, type CurrentLabel } from '../review/label-store.js';
import { loadReviewItems, type ReviewItem } from '../review/review-items.js';
import type { Db } from '../store/open-store.js';
import { knowledgeBases } from '../store/schema.js';
import { agreementHistory, filterChoices, findInteraction } from './console-queries.js';
import { disagreementDetails, type DisagreementList } from './disagreements.js';
import { exportInteractions, listInteractions, type ExportedInteraction, type InteractionFilter } from './interaction-list.js';
import { overview, type Overview, type OverviewWindow } from './overview-query.js';
import { reviewQueue, type ReviewQueue, type ReviewQueueFilter } from './review-queue.js';

/**
 * What the console may read: an object of functions over the shared store, so
 * that the HTTP channel holds no database handle (the same seam chat channels have).
 */
export interface ConsoleReads {
  overview(window: OverviewWindow): Promise<Overview>;
  listInteractions(filter: InteractionFilter, page: number): ReturnType<typeof listInteractions>;
  /** Every interaction matching a filter, newest first, in batches, at most `cap` (the CSV and JSONL exports). */
  exportInteractions(filter: InteractionFilter, cap: number): AsyncIterable<ExportedInteraction[]>;
  filterChoices(): ReturnType<typeof filterChoices>;
  /** The knowledge bases' names, sorted (the KB selector of every page). */
  kbNames(): Promise<string[]>;
  findInteraction(id: number): ReturnType<typeof findInteraction>;
  /** The review queue: unlabelled samples first, filtered, one page, with the backlog. */
  reviewQueue(filter: ReviewQueueFilter, page: number): Promise<ReviewQueue>;
  /** One review sample as reviewers see it, or null. */
  reviewItem(sampleId: number): Promise<ReviewItem | null>;
  agreementHistory(): ReturnType<typeof agreementHistory>;
  /** A report's disagreements with their questions, replies and the judges' reasons (of one KB's items, when given). */
  disagreements(report: AgreementReport, kb?: string): Promise<DisagreementList>;
  labelsOf(sampleIds: readonly number[]): Promise<CurrentLabel[]>;
  gaps(options: { kb: string; days: number; now: Date }): Promise<GapReport>;
  /** Asker feedback since a time (of one KB, when named): replies with feedback, helpful and not helpful (the overview). */
  feedbackSummary(since: Date, kb?: string): ReturnType<typeof feedbackSummary>;
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
    overview: (window) => overview(db, window),
    listInteractions: (filter, page) => listInteractions(db, filter, page),
    exportInteractions: (filter, cap) => exportInteractions(db, filter, { cap }),
    filterChoices: () => filterChoices(db),
    kbNames: async () =>
      (await db.select({ name: knowledgeBases.name }).from(knowledgeBases).orderBy(knowledgeBases.name)).map((k) => k.name),
    findInteraction: (id) => findInteraction(db, id),
    reviewQueue: (filter, page) => reviewQueue(db, filter, page),
    reviewItem: async (sampleId) => (await loadReviewItems(db, [sampleId]))[0] ?? null,
    agreementHistory: () => agreementHistory(db),
    disagreements: (report, kb) => disagreementDetails(db, report, { kb }),
    labelsOf: (sampleIds) => currentLabels(db, { sampleIds }),
    gaps: (o) => kbGapReport(db, indexes, o),
    feedbackSummary: async (since, kb) => {
      if (kb === undefined) return feedbackSummary(db, { since });
      const [found] = await db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.name, kb));
      // A KB that does not exist has no replies: an id no row has.
      return feedbackSummary(db, { since, kbId: found?.id ?? -1 });
    },
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
