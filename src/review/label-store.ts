import { and, desc, eq, sql } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { labelEvents } from '../store/schema.js';
import type { LabelChange } from './label-change.js';
import { emitLabelEvaluations, tracesOfSamples } from './label-evaluations.js';

export type { LabelChange, LabelVia } from './label-change.js';

/** What a change did: a new label, a label already held, a removal, or nothing to remove. */
export type LabelOutcome = 'recorded' | 'unchanged' | 'removed' | 'not_current' | 'duplicate_event';

export interface CurrentLabel {
  readonly sampleId: number;
  readonly task: string;
  readonly annotator: string;
  readonly value: string;
}

/**
 * Sets an annotator's label for a task. The latest label counts and every
 * change is kept; setting the label already held changes nothing. A new label
 * goes to its interaction's trace once stored (a `gen_ai.evaluation.result`).
 */
export async function setLabel(db: Db, change: LabelChange): Promise<LabelOutcome> {
  const { outcome, traces } = await db.transaction(async (tx) => {
    const current = await currentValue(tx as unknown as Db, change);
    if (current === change.value) return { outcome: 'unchanged' as const };
    if (!(await append(tx as unknown as Db, change, 'set'))) return { outcome: 'duplicate_event' as const };
    return { outcome: 'recorded' as const, traces: await tracesOfSamples(tx as unknown as Db, [change.sampleId]) };
  });
  if (traces) emitLabelEvaluations(traces, [change], 'set');
  return outcome;
}

/**
 * Removes an annotator's label when it is still the one given (removing a
 * reaction after changing one's mind by button must not delete the newer label).
 */
export async function removeLabel(db: Db, change: LabelChange): Promise<LabelOutcome> {
  const { outcome, traces } = await db.transaction(async (tx) => {
    const current = await currentValue(tx as unknown as Db, change);
    if (current !== change.value) return { outcome: 'not_current' as const };
    if (!(await append(tx as unknown as Db, change, 'remove'))) return { outcome: 'duplicate_event' as const };
    return { outcome: 'removed' as const, traces: await tracesOfSamples(tx as unknown as Db, [change.sampleId]) };
  });
  if (traces) emitLabelEvaluations(traces, [change], 'remove');
  return outcome;
}

/** Each annotator's current label per sample and task (latest event, when it is not a removal). */
export async function currentLabels(
  db: Db,
  filter: { task?: string | undefined; sampleIds?: readonly number[] } = {},
): Promise<CurrentLabel[]> {
  const conditions = [
    filter.task ? sql`task = ${filter.task}` : sql`true`,
    filter.sampleIds
      ? sql`sample_id in (${sql.join(
          filter.sampleIds.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql`true`,
  ];
  if (filter.sampleIds?.length === 0) return [];
  const result = (await db.execute(sql`
    select sample_id as "sampleId", task, annotator, value from (
      select distinct on (sample_id, task, annotator) sample_id, task, annotator, action, value
      from label_events
      where ${conditions[0]} and ${conditions[1]}
      order by sample_id, task, annotator, id desc
    ) latest
    where action = 'set'
    order by sample_id, task, annotator`)) as unknown as { rows: CurrentLabel[] };
  return result.rows.map((row) => ({ ...row, sampleId: Number(row.sampleId) }));
}

/** Every label event of a sample, oldest first (the review history). */
export async function labelHistory(db: Db, sampleId: number) {
  return db.select().from(labelEvents).where(eq(labelEvents.sampleId, sampleId)).orderBy(labelEvents.id);
}

async function currentValue(db: Db, key: Pick<LabelChange, 'sampleId' | 'task' | 'annotator'>): Promise<string | null> {
  const [latest] = await db
    .select({ action: labelEvents.action, value: labelEvents.value })
    .from(labelEvents)
    .where(and(eq(labelEvents.sampleId, key.sampleId), eq(labelEvents.task, key.task), eq(labelEvents.annotator, key.annotator)))
    .orderBy(desc(labelEvents.id))
    .limit(1);
  return latest?.action === 'set' ? latest.value : null;
}

async function append(db: Db, change: LabelChange, action: 'set' | 'remove'): Promise<boolean> {
  const rows = await db
    .insert(labelEvents)
    .values({
      sampleId: change.sampleId,
      task: change.task,
      annotator: change.annotator,
      action,
      value: change.value,
      via: change.via,
      eventId: change.eventId ?? null,
      explanation: change.explanation ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: labelEvents.id });
  return rows.length > 0;
}

/**
 * Records many labels at once (an import, a rule judge over thousands of
 * items), in chunks, inside the caller's transaction when given one. Only
 * changes are written: a label equal to the annotator's current one is left
 * alone. Returns how many were recorded and how many were already current.
 */
export async function setLabels(db: Db, changes: readonly LabelChange[]): Promise<{ recorded: number; unchanged: number }> {
  if (changes.length === 0) return { recorded: 0, unchanged: 0 };
  const current = await currentLabels(db, { sampleIds: [...new Set(changes.map((c) => c.sampleId))] });
  const held = new Map(current.map((l) => [`${l.sampleId}|${l.task}|${l.annotator}`, l.value]));
  const todo = changes.filter((c) => held.get(`${c.sampleId}|${c.task}|${c.annotator}`) !== c.value);
  for (let i = 0; i < todo.length; i += 500) {
    const chunk = todo.slice(i, i + 500);
    await db.insert(labelEvents).values(
      chunk.map((c) => ({
        sampleId: c.sampleId,
        task: c.task,
        annotator: c.annotator,
        action: 'set',
        value: c.value,
        via: c.via,
        eventId: c.eventId ?? null,
        explanation: c.explanation ?? null,
      })),
    );
  }
  return { recorded: todo.length, unchanged: changes.length - todo.length };
}
