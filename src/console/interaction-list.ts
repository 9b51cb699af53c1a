import { and, desc, eq, gte, ilike, lt, ne, or, type SQL } from 'drizzle-orm';

import type { AnswerabilityView } from '../ask/decision.js';
import type { Db } from '../store/open-store.js';
import { interactions, knowledgeBases } from '../store/schema.js';
import { containsPattern } from './sql-parts.js';

/** Where interactions came from: live channels (every channel but imports), imported benchmark replies, or both. */
export type InteractionSource = 'live' | 'imported' | 'all';

/** The channel imported replies are stored under (see review/import-labels.ts). */
const IMPORTED = 'import';

export interface InteractionFilter {
  readonly decision?: string | undefined;
  /** How sure an answer was: 'high' | 'medium' | 'low'. */
  readonly confidence?: string | undefined;
  readonly reason?: string | undefined;
  readonly channel?: string | undefined;
  readonly kb?: string | undefined;
  /** @default 'live' */
  readonly source?: InteractionSource | undefined;
  /** Words the question (as judged or as typed) or the reply contains, case-insensitive. */
  readonly text?: string | undefined;
  /** Asked at or after. */
  readonly from?: Date | undefined;
  /** Asked before. */
  readonly to?: Date | undefined;
}

export const PAGE_SIZE = 50;

/** The conditions of a filter; evaluation asks are never listed. */
function conditions(filter: InteractionFilter): SQL | undefined {
  const source = filter.source ?? 'live';
  const pattern = filter.text ? containsPattern(filter.text) : undefined;
  return and(
    ne(interactions.channel, 'eval'),
    source === 'live' ? ne(interactions.channel, IMPORTED) : source === 'imported' ? eq(interactions.channel, IMPORTED) : undefined,
    filter.decision ? eq(interactions.decision, filter.decision) : undefined,
    filter.confidence ? eq(interactions.confidence, filter.confidence) : undefined,
    filter.reason ? eq(interactions.reason, filter.reason) : undefined,
    filter.channel ? eq(interactions.channel, filter.channel) : undefined,
    filter.kb ? eq(knowledgeBases.name, filter.kb) : undefined,
    pattern
      ? or(ilike(interactions.question, pattern), ilike(interactions.typedQuestion, pattern), ilike(interactions.answer, pattern))
      : undefined,
    filter.from ? gte(interactions.createdAt, filter.from) : undefined,
    filter.to ? lt(interactions.createdAt, filter.to) : undefined,
  );
}

const LISTED = {
  id: interactions.id,
  createdAt: interactions.createdAt,
  channel: interactions.channel,
  kb: knowledgeBases.name,
  kbVersion: interactions.kbVersion,
  question: interactions.question,
  decision: interactions.decision,
  reason: interactions.reason,
  confidence: interactions.confidence,
  answerability: interactions.answerability,
  latencyMs: interactions.latencyMs,
};

/** One page of interactions, newest first, and whether there is a next one. */
export async function listInteractions(db: Db, filter: InteractionFilter, page: number) {
  const found = await db
    .select(LISTED)
    .from(interactions)
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(conditions(filter))
    .orderBy(desc(interactions.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return { rows: found.slice(0, PAGE_SIZE), more: found.length > PAGE_SIZE };
}

/** One interaction as an export holds it (CSV columns, JSONL fields), in this order. */
export interface ExportedInteraction {
  readonly id: number;
  readonly createdAt: string;
  readonly channel: string;
  readonly kb: string | null;
  readonly kbVersion: number | null;
  readonly question: string;
  readonly typedQuestion: string | null;
  readonly decision: string | null;
  readonly expectedDecision: string | null;
  readonly reason: string | null;
  readonly confidence: string | null;
  readonly answer: string | null;
  readonly answerability: number | null;
  readonly topScore: number | null;
  readonly latencyMs: number | null;
  readonly model: string | null;
  readonly traceId: string | null;
}

export const EXPORT_FIELDS: readonly (keyof ExportedInteraction)[] = [
  'id',
  'createdAt',
  'channel',
  'kb',
  'kbVersion',
  'question',
  'typedQuestion',
  'decision',
  'expectedDecision',
  'reason',
  'confidence',
  'answer',
  'answerability',
  'topScore',
  'latencyMs',
  'model',
  'traceId',
];

/**
 * Every interaction matching a filter, newest first, in batches read one after another (keyset on the id), at
 * most `cap` of them: an export streams without holding the whole table, and stops at the cap.
 */
export async function* exportInteractions(
  db: Db,
  filter: InteractionFilter,
  options: { readonly cap: number; readonly batch?: number },
): AsyncGenerator<ExportedInteraction[]> {
  const batch = options.batch ?? 500;
  let before = Number.MAX_SAFE_INTEGER;
  let left = options.cap;
  while (left > 0) {
    const found = await db
      .select({
        id: interactions.id,
        createdAt: interactions.createdAt,
        channel: interactions.channel,
        kb: knowledgeBases.name,
        kbVersion: interactions.kbVersion,
        question: interactions.question,
        typedQuestion: interactions.typedQuestion,
        decision: interactions.decision,
        expectedDecision: interactions.expectedDecision,
        reason: interactions.reason,
        confidence: interactions.confidence,
        answer: interactions.answer,
        answerability: interactions.answerability,
        topScore: interactions.topScore,
        latencyMs: interactions.latencyMs,
        model: interactions.model,
        traceId: interactions.traceId,
      })
      .from(interactions)
      .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
      .where(and(conditions(filter), lt(interactions.id, before)))
      .orderBy(desc(interactions.id))
      .limit(Math.min(batch, left));
    if (found.length === 0) return;
    yield found.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      answerability: (r.answerability as AnswerabilityView | null)?.score ?? null,
    }));
    left -= found.length;
    before = (found[found.length - 1] as { id: number }).id;
    if (found.length < Math.min(batch, left + found.length)) return;
  }
}
