import { and, desc, inArray } from 'drizzle-orm';

import { RULE_JUDGES } from '../core/judge/rule-judges.js';
import type { AgreementReport } from '../core/review/agreement-report.js';
import { loadReviewItems } from '../review/review-items.js';
import type { Db } from '../store/open-store.js';
import { labelEvents } from '../store/schema.js';

/** One item a judge and the people disagreed on, as the agreement page lists it. */
export interface Disagreement {
  readonly task: string;
  readonly judge: string;
  readonly sampleId: number;
  readonly interactionId: number | null;
  readonly kb: string | null;
  readonly channel: string | null;
  readonly question: string;
  readonly reply: string;
  /** The judge's label and the people's majority. */
  readonly judgeLabel: string;
  readonly humanMajority: string;
  /** Each person's label, by annotator. */
  readonly humans: Readonly<Record<string, string>>;
  /** Why the judge said so: an LLM judge's stored reasoning, a rule judge's own account; null when unknown. */
  readonly reason: string | null;
}

export interface DisagreementList {
  readonly rows: readonly Disagreement[];
  /** Disagreements in the report (of the KB asked for, when one was). */
  readonly total: number;
}

/**
 * The disagreements of a stored agreement report with what a reader needs beside them: the question, the
 * reply, every person's label and the judge's reason. At most `limit` are read (newest samples first).
 */
export async function disagreementDetails(
  db: Db,
  report: AgreementReport,
  options: { readonly kb?: string | undefined; readonly limit?: number } = {},
): Promise<DisagreementList> {
  const all = report.tasks.flatMap((t) =>
    t.judges.flatMap((j) => j.disagreements.map((d) => ({ ...d, task: t.task, annotator: j.judge }))),
  );
  const items = new Map((await loadReviewItems(db, [...new Set(all.map((d) => d.sampleId))])).map((i) => [i.sampleId, i]));
  const matching = all
    .filter((d) => !options.kb || items.get(d.sampleId)?.kb === options.kb)
    .sort((a, b) => b.sampleId - a.sampleId || a.annotator.localeCompare(b.annotator));
  const shown = matching.slice(0, options.limit ?? 100);
  const reasons = await judgeReasons(
    db,
    shown.map((d) => ({ sampleId: d.sampleId, task: d.task, annotator: d.annotator })),
  );
  return {
    total: matching.length,
    rows: shown.map((d) => {
      const item = items.get(d.sampleId);
      const rule = RULE_JUDGES.find((r) => r.annotator === d.annotator && r.task === d.task);
      const stored = reasons.get(`${d.sampleId}|${d.task}|${d.annotator}`) ?? null;
      const derived = item && rule?.explain ? rule.explain({ question: item.question, reply: item.reply, expected: item.expected }) : null;
      return {
        task: d.task,
        judge: d.annotator,
        sampleId: d.sampleId,
        interactionId: item?.interactionId ?? null,
        kb: item?.kb ?? null,
        channel: item?.channel ?? null,
        question: item?.question ?? '',
        reply: item?.reply ?? '',
        judgeLabel: d.judge,
        humanMajority: d.humanMajority,
        humans: d.humans,
        reason: stored ?? derived,
      };
    }),
  };
}

/** The explanation stored with each judge's current label, keyed "sample|task|annotator". */
async function judgeReasons(db: Db, keys: readonly { sampleId: number; task: string; annotator: string }[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (keys.length === 0) return out;
  const found = await db
    .select({
      sampleId: labelEvents.sampleId,
      task: labelEvents.task,
      annotator: labelEvents.annotator,
      explanation: labelEvents.explanation,
      action: labelEvents.action,
    })
    .from(labelEvents)
    .where(
      and(
        inArray(labelEvents.sampleId, [...new Set(keys.map((k) => k.sampleId))]),
        inArray(labelEvents.annotator, [...new Set(keys.map((k) => k.annotator))]),
      ),
    )
    .orderBy(desc(labelEvents.id));
  for (const row of found) {
    const key = `${row.sampleId}|${row.task}|${row.annotator}`;
    // Newest first: the first event of a key is its current one.
    if (!out.has(key)) out.set(key, row.action === 'set' ? (row.explanation ?? '') : '');
  }
  for (const [key, value] of out) if (value === '') out.delete(key);
  return out;
}
