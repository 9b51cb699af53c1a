import { isJudgeAnnotator } from '../../core/review/agreement-report.js';
import type { Db } from '../../store/open-store.js';
import { currentLabels, setLabel } from '../label-store.js';
import { loadReviewItems, type ReviewItem } from '../review-items.js';
import { judgeAnnotator, type JudgeSpec } from './judge-specs.js';

/** A judge's verdict: one of the spec's outcomes, and why when the judge says (an LLM judge's reasoning). */
export type JudgeVerdict = string | { readonly label: string; readonly reasoning?: string | undefined };

/** Applies one judge spec to one item; returns one of the spec's outcomes (with its reasoning, if any) or throws. */
export type Judge = (spec: JudgeSpec, item: ReviewItem) => Promise<JudgeVerdict>;

export interface JudgeRunResult {
  readonly spec: string;
  readonly judged: number;
  /** Items the judge could not label (model unavailable, invalid output), with why. */
  readonly failed: readonly { readonly sampleId: number; readonly error: string }[];
}

/**
 * Runs a judge spec over every item that humans have labelled for its task and
 * that this spec version has not labelled yet; stores its labels under
 * `llm:<name>@<version>`. A failed item is reported, never guessed.
 */
export async function runJudge(db: Db, spec: JudgeSpec, judge: Judge, options: { limit?: number } = {}): Promise<JudgeRunResult> {
  const annotator = judgeAnnotator(spec);
  const labels = await currentLabels(db, { task: spec.task });
  const humanLabelled = new Set(labels.filter((l) => !isJudgeAnnotator(l.annotator)).map((l) => l.sampleId));
  const done = new Set(labels.filter((l) => l.annotator === annotator).map((l) => l.sampleId));
  const todo = [...humanLabelled]
    .filter((id) => !done.has(id))
    .sort((a, b) => a - b)
    .slice(0, options.limit ?? Infinity);
  const items = await loadReviewItems(db, todo);
  const failed: { sampleId: number; error: string }[] = [];
  let judged = 0;
  for (const item of items) {
    if (spec.task === 'factuality' && item.decision === 'abstain') continue;
    try {
      const verdict = await judge(spec, item);
      const value = typeof verdict === 'string' ? verdict : verdict.label;
      if (!spec.outcomes.includes(value)) throw new Error(`"${value}" is not one of ${spec.outcomes.join(', ')}`);
      const explanation = typeof verdict === 'string' ? undefined : verdict.reasoning?.trim() || undefined;
      await setLabel(db, { sampleId: item.sampleId, task: spec.task, annotator, value, via: 'judge', explanation });
      judged += 1;
    } catch (error) {
      failed.push({ sampleId: item.sampleId, error: (error as Error).message });
    }
  }
  return { spec: annotator, judged, failed };
}
