import { sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';

import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';
import { groundingSupport, type Decided } from './decision.js';

/** The columns of an interaction row that describe its decision. */
export function decisionColumns(decision: Decided) {
  const deciding = decision.decision === 'abstain' ? decision.reasons[0] : undefined;
  return {
    kbVersion: decision.kb.version,
    decision: decision.decision,
    reason: deciding?.code ?? null,
    confidence: decision.confidence,
    groundingSupport: groundingSupport(decision),
    answer: decision.answer ?? decision.refusal,
    verdicts: decision.reasons,
    evidence: decision.evidence,
    considered: decision.decision === 'abstain' ? (decision.considered ?? null) : null,
    topScore: decision.answerability?.features.relevance ?? null,
    answerability: decision.answerability ?? null,
    model: decision.generation?.model ?? null,
    promptVersion: decision.generation?.prompt ?? null,
  };
}

/** A new, decided interaction row, as the recorder inserts it. */
export type InteractionRow = {
  channel: string;
  eventId: string | null;
  conversationRef: string | null;
  userHash: string | null;
  kbId: number | null;
  question: string;
  status: 'done';
  traceId: string;
  latencyMs: number;
} & ReturnType<typeof decisionColumns>;

/** One prepared insert per batch size, built on first use: no query building per ask. */
export interface Statements {
  readonly db: Db;
  readonly bySize: Map<number, ReturnType<typeof prepareInsert>>;
}

function prepareInsert(db: Db, columns: readonly (keyof InteractionRow)[], size: number) {
  const values = Array.from(
    { length: size },
    (_, i) => Object.fromEntries(columns.map((c) => [c, sql.placeholder(`${c}${i}`)])) as PgInsertValue<typeof interactions>,
  );
  return db
    .insert(interactions)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: interactions.id, channel: interactions.channel, eventId: interactions.eventId })
    .prepare(`record_interactions_${size}`);
}

const eventKey = (channel: string, eventId: string) => `${channel}\u0000${eventId}`;

/**
 * Inserts the batch in one statement; per row, its id, or null when its event was recorded before (by an earlier
 * ask, or by a row before it in this batch). Rows come back keyed by event, since a skipped conflict returns
 * nothing; rows without an event id cannot conflict (NULLs are distinct in the unique index), and come back in
 * the order of their ids, which PostgreSQL draws from the sequence in the order of the VALUES list.
 */
export async function insertInteractions(statements: Statements, batch: readonly InteractionRow[]): Promise<(number | null)[]> {
  const seen = new Set<string>();
  const unique = batch.filter((row) => {
    if (row.eventId === null) return true;
    const key = eventKey(row.channel, row.eventId);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const columns = Object.keys(unique[0] as InteractionRow) as (keyof InteractionRow)[];
  let insert = statements.bySize.get(unique.length);
  if (!insert) statements.bySize.set(unique.length, (insert = prepareInsert(statements.db, columns, unique.length)));
  const params: Record<string, unknown> = {};
  unique.forEach((row, i) => {
    for (const c of columns) params[`${c}${i}`] = row[c];
  });
  const stored = await insert.execute(params);

  const byEvent = new Map<string, number>();
  const plain: number[] = [];
  for (const r of stored) {
    if (r.eventId === null) plain.push(r.id);
    else byEvent.set(eventKey(r.channel, r.eventId), r.id);
  }
  plain.sort((a, b) => a - b);
  const expected = unique.filter((row) => row.eventId === null).length;
  if (plain.length !== expected)
    throw new Error(`the interactions insert returned ${plain.length} rows without an event id, not ${expected}`);
  let next = 0;
  return batch.map((row) => {
    if (row.eventId === null) return plain[next++] as number;
    const key = eventKey(row.channel, row.eventId);
    // A duplicate within the batch: the first of them owns the row, as if they had come one after another.
    if (!seen.delete(key)) return null;
    return byEvent.get(key) ?? null;
  });
}
