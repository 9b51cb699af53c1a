import { and, eq, inArray } from 'drizzle-orm';

import { importedLabel } from '../core/review/imported-label.js';
import { reviewTask, type ReviewTask } from '../core/review/review-tasks.js';
import { readJsonl, type JsonlRow } from '../kb/read-jsonl.js';
import { CandorError } from '../kernel/errors.js';
import type { Db } from '../store/open-store.js';
import { interactions, reviewSamples } from '../store/schema.js';
import { setLabels, type LabelChange } from './label-store.js';
import { responseRowSchema, RESPONSES_FORMAT, type ResponseRow } from './response-rows.js';

/** The channel imported replies are stored under; they are never sampled or posted to a review channel. */
export const IMPORT_CHANNEL = 'import';

export interface ImportOptions {
  /** The outside annotator; stored as `import:<name>`. */
  readonly annotator: string;
  readonly task: 'abstention' | 'factuality';
  readonly file: string;
}

export interface ImportSummary {
  readonly file: string;
  readonly annotator: string;
  readonly task: string;
  readonly rows: number;
  readonly items: { readonly added: number; readonly existing: number };
  readonly labels: { readonly recorded: number; readonly unchanged: number };
  /** Rows whose label says the task does not apply (factuality "NA": the reply abstained). */
  readonly notApplicable: number;
  /** Rows with no label: imported as items only. */
  readonly unlabelled: number;
}

const NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/**
 * Imports replies and an outside annotator's labels for one task (e.g.
 * PolicyBench's published GPT-4.1 labels) as review items, so the agreement
 * report compares Candor's judges with that annotator. Idempotent: a reply
 * already imported under the same id is reused and an unchanged label is not
 * written again. All or nothing: any bad line, or an id imported before with
 * a different question or reply, stops the import before anything is stored.
 */
export async function importLabels(db: Db, options: ImportOptions): Promise<ImportSummary> {
  if (!NAME.test(options.annotator))
    throw new CandorError(
      'option_invalid',
      `--annotator "${options.annotator}": use letters, digits, _ . - (up to 64), e.g. policybench-gpt41`,
    );
  const task = reviewTask(options.task);
  if (!task || (task.id !== 'abstention' && task.id !== 'factuality'))
    throw new CandorError('option_invalid', `--task must be abstention or factuality (got "${options.task}")`);
  const annotator = `import:${options.annotator}`;
  const rows = readJsonl(options.file, responseRowSchema(task.id), { expected: RESPONSES_FORMAT });

  const { planned, problems } = planRows(rows, task);
  const existing = await findImported(
    db,
    planned.map((p) => p.row.id),
  );
  problems.push(...againstEarlierImports(planned, existing));
  if (problems.length > 0) throw badLines(options.file, problems);

  return db.transaction(async (txAny) => {
    const tx = txAny as unknown as Db;
    const interactionIds = await importedInteractions(tx, planned, existing);
    const samples = await importedSamples(tx, interactionIds);
    const changes: LabelChange[] = planned.flatMap((p, i) =>
      p.label?.kind === 'label'
        ? [
            {
              sampleId: samples.get(interactionIds[i] as number) as number,
              task: task.id,
              annotator,
              value: p.label.value,
              via: 'import' as const,
            },
          ]
        : [],
    );
    const labels = await setLabels(tx, changes);
    return {
      file: options.file,
      annotator,
      task: task.id,
      rows: planned.length,
      items: { added: planned.length - existing.size, existing: existing.size },
      labels,
      notApplicable: planned.filter((p) => p.label?.kind === 'not_applicable').length,
      unlabelled: planned.filter((p) => p.label === null).length,
    };
  });
}

type Planned = { readonly line: number; readonly row: ResponseRow; readonly expected: 'answer' | 'abstain' | null };
type Imported = Awaited<ReturnType<typeof findImported>>;

/**
 * Each line as it will be imported: its row, the decision that was right (when the row says) and its label;
 * problems name the lines that reuse an id or carry a label the task cannot take.
 */
function planRows(rows: readonly JsonlRow<ResponseRow>[], task: ReviewTask) {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const planned = rows.map(({ line, value }) => {
    if (seen.has(value.id)) problems.push(`line ${line}: id "${value.id}" already used on line ${seen.get(value.id)}`);
    seen.set(value.id, line);
    const expected: 'answer' | 'abstain' | null = value.answerable === undefined ? null : value.answerable ? 'answer' : 'abstain';
    const label = value.label === undefined ? null : importedLabel(task.id, value.label, expected, task.outcomes);
    if (label?.kind === 'invalid') problems.push(`line ${line}: ${label.message}`);
    return { line, row: value, expected, label };
  });
  return { planned, problems };
}

/** Rows whose id was imported before with another question or reply, or as the other kind: one problem each. */
function againstEarlierImports(planned: readonly Planned[], existing: Imported): string[] {
  const problems: string[] = [];
  for (const p of planned) {
    const before = existing.get(p.row.id);
    if (!before) continue;
    if (before.question !== p.row.question || (before.answer ?? '') !== p.row.response) {
      problems.push(
        `line ${p.line}: id "${p.row.id}" was imported before with a different question or reply; give this file's rows their own ids (e.g. a prefix)`,
      );
    } else if (before.expected && p.expected && before.expected !== p.expected) {
      problems.push(
        `line ${p.line}: id "${p.row.id}" was imported before as ${before.expected === 'abstain' ? 'unanswerable' : 'answerable'}`,
      );
    }
  }
  return problems;
}

/** The file's bad lines (up to ten named): nothing is imported. */
function badLines(file: string, problems: readonly string[]): CandorError {
  return new CandorError(
    'file_malformed',
    `${file}: ${problems.length} bad line${problems.length === 1 ? '' : 's'}, nothing imported:\n  ${problems.slice(0, 10).join('\n  ')}${problems.length > 10 ? `\n  … and ${problems.length - 10} more` : ''}`,
  );
}

function toInteraction(row: ResponseRow, expected: 'answer' | 'abstain' | null) {
  return {
    channel: IMPORT_CHANNEL,
    eventId: row.id,
    question: row.question,
    answer: row.response,
    status: 'imported',
    expectedDecision: expected,
  };
}

async function findImported(db: Db, ids: readonly string[]) {
  const out = new Map<string, { id: number; question: string; answer: string | null; expected: string | null }>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({
        id: interactions.id,
        eventId: interactions.eventId,
        question: interactions.question,
        answer: interactions.answer,
        expected: interactions.expectedDecision,
      })
      .from(interactions)
      .where(and(eq(interactions.channel, IMPORT_CHANNEL), inArray(interactions.eventId, ids.slice(i, i + 1000))));
    for (const r of rows) out.set(r.eventId as string, r);
  }
  return out;
}

/**
 * Each row's interaction id, in the file's order: replies not imported before are stored, and the right
 * decision is added to those imported without one.
 */
async function importedInteractions(tx: Db, planned: readonly Planned[], existing: Imported): Promise<number[]> {
  const fresh = planned.filter((p) => !existing.has(p.row.id));
  for (let i = 0; i < fresh.length; i += 500) {
    await tx
      .insert(interactions)
      .values(fresh.slice(i, i + 500).map((p) => toInteraction(p.row, p.expected)))
      .onConflictDoNothing();
  }
  for (const p of planned) {
    const before = existing.get(p.row.id);
    if (before && !before.expected && p.expected)
      await tx.update(interactions).set({ expectedDecision: p.expected }).where(eq(interactions.id, before.id));
  }
  const ids = await findImported(
    tx,
    planned.map((p) => p.row.id),
  );
  return planned.map((p) => (ids.get(p.row.id) as { id: number }).id);
}

/** Each imported interaction's review sample (made when missing), by interaction id. */
async function importedSamples(tx: Db, interactionIds: readonly number[]): Promise<Map<number, number>> {
  for (let i = 0; i < interactionIds.length; i += 500) {
    await tx
      .insert(reviewSamples)
      .values(
        interactionIds.slice(i, i + 500).map((interactionId) => ({ interactionId, stratum: IMPORT_CHANNEL, postedTo: IMPORT_CHANNEL })),
      )
      .onConflictDoNothing();
  }
  return sampleIds(tx, interactionIds);
}

async function sampleIds(db: Db, interactionIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < interactionIds.length; i += 1000) {
    const rows = await db
      .select({ id: reviewSamples.id, interactionId: reviewSamples.interactionId })
      .from(reviewSamples)
      .where(inArray(reviewSamples.interactionId, interactionIds.slice(i, i + 1000)));
    for (const r of rows) out.set(r.interactionId, r.id);
  }
  return out;
}
