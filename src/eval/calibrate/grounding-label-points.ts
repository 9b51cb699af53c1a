import { and, eq, isNotNull } from 'drizzle-orm';

import { quotedInstead } from '../../ask/decision.js';
import { majorityLabel } from '../../core/agreement/majority-label.js';
import type { GroundingPoint } from '../../core/calibrate/grounding-sweep.js';
import { checkGrounding } from '../../core/gate/grounding.js';
import { isJudgeAnnotator } from '../../core/review/agreement-report.js';
import { currentLabels } from '../../review/label-store.js';
import type { Db } from '../../store/open-store.js';
import { interactions, reviewSamples } from '../../store/schema.js';

/** What the labels gave, and what was left out. */
export interface LabelCounts {
  /** Model answers whose human majority on the factuality task is `factual` / `non_factual`. */
  readonly factual: number;
  readonly nonFactual: number;
  /** Labelled answers that quote the sources because the model's draft was withheld: the draft's text is not kept. */
  readonly quoted: number;
}

/**
 * From reviewers' labels on the `factuality` task of a KB's model answers: an answer labelled `factual` is a
 * supported draft, `non_factual` an unsupported one (each item once, by the human majority; `unsure`, ties, judges
 * and imported labels left out). Each is scored again by the grounding check in force now, over the facts it cited
 * (a model answer's evidence is exactly those, in citation order) and the question it answered, so the threshold
 * fits the check that will use it. Only drafts that were shown can be labelled: withheld ones are quoted instead and
 * their text is kept nowhere, so these labels only see drafts that passed the threshold in force when they were asked.
 */
export async function groundingPointsFromLabels(db: Db, kbId: number): Promise<{ points: GroundingPoint[]; counts: LabelCounts }> {
  const rows = await db
    .select({
      sampleId: reviewSamples.id,
      question: interactions.question,
      answer: interactions.answer,
      evidence: interactions.evidence,
      verdicts: interactions.verdicts,
    })
    .from(reviewSamples)
    .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
    .where(and(eq(interactions.kbId, kbId), eq(interactions.decision, 'answer'), isNotNull(interactions.model)));
  const labels = await currentLabels(db, { task: 'factuality', sampleIds: rows.map((r) => r.sampleId) });
  const points: GroundingPoint[] = [];
  let quoted = 0;
  for (const row of rows) {
    const human = labels.filter((l) => l.sampleId === row.sampleId && !isJudgeAnnotator(l.annotator) && !l.annotator.startsWith('import:'));
    const verdict = majorityLabel(human.map((l) => l.value));
    if (verdict !== 'factual' && verdict !== 'non_factual') continue;
    if (quotedInstead({ decision: 'answer', reasons: row.verdicts })) {
      quoted += 1;
      continue;
    }
    if (!row.answer || row.evidence.length === 0) continue;
    const cited = row.evidence.map((_e, i) => i + 1);
    const scored = checkGrounding({ answer: row.answer, citations: cited }, row.evidence, { question: row.question });
    points.push({ support: scored.support, supported: verdict === 'factual' });
  }
  const count = (supported: boolean) => points.filter((p) => p.supported === supported).length;
  return { points, counts: { factual: count(true), nonFactual: count(false), quoted } };
}
