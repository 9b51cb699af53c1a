import { assessQuestion } from '../../ask/assess-question.js';
import type { Config } from '../../config.js';
import type { CalibrationPoint } from '../../core/calibrate/threshold-sweep.js';
import type { AnswerabilityModel } from '../../core/gate/answerability-model.js';
import type { KnowledgeIndex } from '../../kb/knowledge-index.js';
import { citesRight, factIdsOf, type LooQuestion } from '../leave-one-out.js';

export interface PointOptions {
  readonly config: Pick<Config, 'ask' | 'gate'>;
  readonly model: AnswerabilityModel;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Asks once through the production gate and reduces it to a calibration point (the threshold plays no part). */
export function observe(index: KnowledgeIndex, question: string, exclude: ReadonlySet<number>, options: PointOptions) {
  const assessed = assessQuestion(index, question, { config: options.config, model: options.model, exclude, minAnswerability: 0 });
  const evidence = assessed.cited().map((f) => ({ factId: f.externalId ?? String(f.factId), text: f.text }));
  return {
    score: assessed.gate.answerability.score,
    ruleRefused: assessed.gate.verdicts.some((v) => !v.pass && v.layer !== 'answerability'),
    evidence,
  };
}

/**
 * From a questions file (the `eval loo` format): each answerable question with
 * the full KB (right when it cites one of its facts or answers) and with its
 * facts left out; each unanswerable question as it is.
 */
export function pointsFromQuestions(index: KnowledgeIndex, questions: readonly LooQuestion[], options: PointOptions): CalibrationPoint[] {
  const points: CalibrationPoint[] = [];
  questions.forEach((q, i) => {
    if (!q.answerable) {
      const seen = observe(index, q.question, new Set(), options);
      points.push({ score: seen.score, kind: 'refusable', right: false, ruleRefused: seen.ruleRefused });
    } else {
      const full = observe(index, q.question, new Set(), options);
      points.push({ score: full.score, kind: 'answerable', right: citesRight(q, full), ruleRefused: full.ruleRefused });
      const ids = factIdsOf(q);
      if (ids.length > 0) {
        const left = observe(index, q.question, index.resolveExternalIds(ids).keys, options);
        points.push({ score: left.score, kind: 'refusable', right: false, ruleRefused: left.ruleRefused });
      }
    }
    options.onProgress?.(i + 1, questions.length);
  });
  return points;
}
