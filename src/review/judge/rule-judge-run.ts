import type { RuleJudge } from '../../core/judge/rule-judges.js';
import { isJudgeAnnotator } from '../../core/review/agreement-report.js';
import type { Db } from '../../store/open-store.js';
import { emitLabelEvaluations, tracesOfSamples } from '../label-evaluations.js';
import { currentLabels, setLabels, type LabelChange } from '../label-store.js';
import { loadReviewItems } from '../review-items.js';
import type { JudgeRunResult } from './judge-run.js';

/**
 * Runs a rule judge (no model) over every item that a reference annotator
 * (a human or an imported annotator) has labelled for its task and that the
 * rule has not labelled yet; items it cannot judge (no expected decision) are
 * counted as skipped, not failed. Labels are written in one batch; those of
 * traced (live) interactions then go to their traces.
 */
export async function runRuleJudge(db: Db, judge: RuleJudge): Promise<JudgeRunResult & { skipped: number }> {
  const labels = await currentLabels(db, { task: judge.task });
  const referenced = new Set(labels.filter((l) => !isJudgeAnnotator(l.annotator)).map((l) => l.sampleId));
  const done = new Set(labels.filter((l) => l.annotator === judge.annotator).map((l) => l.sampleId));
  const todo = [...referenced].filter((id) => !done.has(id)).sort((a, b) => a - b);
  const changes: LabelChange[] = [];
  let skipped = 0;
  for (let i = 0; i < todo.length; i += 1000) {
    for (const item of await loadReviewItems(db, todo.slice(i, i + 1000))) {
      const value = judge.label({ question: item.question, reply: item.reply, expected: item.expected });
      if (value === null) skipped += 1;
      else changes.push({ sampleId: item.sampleId, task: judge.task, annotator: judge.annotator, value, via: 'judge' as const });
    }
  }
  const { recorded, traces } = await db.transaction(async (tx) => ({
    ...(await setLabels(tx as unknown as Db, changes)),
    traces: await tracesOfSamples(
      tx as unknown as Db,
      changes.map((c) => c.sampleId),
    ),
  }));
  // Only items not yet labelled by this rule were judged, so every change is a new verdict.
  emitLabelEvaluations(traces, changes);
  return { spec: judge.annotator, judged: recorded, failed: [], skipped };
}
