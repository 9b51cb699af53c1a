import { and, eq, isNotNull } from 'drizzle-orm';

import { majorityLabel } from '../../core/agreement/majority-label.js';
import type { CalibrationPoint } from '../../core/calibrate/threshold-sweep.js';
import { isJudgeAnnotator } from '../../core/review/agreement-report.js';
import { currentLabels } from '../../review/label-store.js';
import type { Db } from '../../store/open-store.js';
import { interactions, reviewSamples } from '../../store/schema.js';

/**
 * From reviewers' labels on the `abstention` task (correct / incorrect) of a
 * KB's live interactions: an answer labelled correct, or a refusal labelled
 * incorrect, should have been answered; the other two should have been
 * refused. Each item counts once, by the human majority (ties and judges left
 * out), at the answerability score it was asked with. Interactions asked
 * before scores were stored, or by another model, are left out.
 */
export async function pointsFromLabels(db: Db, kbId: number, model: string): Promise<{ points: CalibrationPoint[]; skipped: number }> {
  const rows = await db
    .select({ sampleId: reviewSamples.id, decision: interactions.decision, answerability: interactions.answerability })
    .from(reviewSamples)
    .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
    .where(and(eq(interactions.kbId, kbId), isNotNull(interactions.decision)));
  const labels = await currentLabels(db, { task: 'abstention', sampleIds: rows.map((r) => r.sampleId) });
  const points: CalibrationPoint[] = [];
  let skipped = 0;
  for (const row of rows) {
    const human = labels.filter((l) => l.sampleId === row.sampleId && !isJudgeAnnotator(l.annotator) && !l.annotator.startsWith('import:'));
    const verdict = majorityLabel(human.map((l) => l.value));
    const scored = row.answerability;
    if (verdict === null) continue;
    if (typeof scored?.score !== 'number' || scored.model !== model) {
      skipped += 1;
      continue;
    }
    const shouldAnswer = (row.decision === 'answer') === (verdict === 'correct');
    // A reviewer who says a refusal was wrong says answering was right; an answer labelled correct cited well.
    points.push({ score: scored.score, kind: shouldAnswer ? 'answerable' : 'refusable', right: shouldAnswer, ruleRefused: false });
  }
  return { points, skipped };
}
