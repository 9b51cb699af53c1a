import { assessQuestion } from '../../ask/assess-question.js';
import type { Config } from '../../config.js';
import { mulberry32 } from '../../core/agreement/seeded-random.js';
import { FEATURE_NAMES, featureVector } from '../../core/gate/answerability-features.js';
import type { AnswerabilityModel } from '../../core/gate/answerability-model.js';
import { tierCaps } from '../../core/gate/tier-caps.js';
import type { TierCode } from '../../core/gate/types.js';
import type { KnowledgeIndex } from '../../kb/knowledge-index.js';
import { citesRightFact, type BenchmarkQuestion, type BenchmarkSet } from '../benchmarks/benchmark-set.js';

/**
 * What a row asks: an answerable question with the full KB; the same with its
 * facts left out (KnowOrNot); an unanswerable question; or another set's
 * question, which this KB cannot answer (out of scope).
 */
export type RowKind = 'answerable' | 'left-out' | 'unanswerable' | 'out-of-scope';

/** One ask, reduced to what training and validation need. */
export interface GateRow {
  /** The KB asked. */
  readonly set: string;
  /** The set the question came from (differs for out-of-scope rows). */
  readonly questionSet: string;
  readonly kind: RowKind;
  readonly questionId: string;
  /** Counted in the set's reported figures. */
  readonly reported: boolean;
  readonly features: readonly number[];
  /** 1 when answering would be right: an answerable question whose cited facts answer it. */
  readonly label: 0 | 1;
  /** A crisp rule (unknown identifier, no evidence) refused, whatever the score. */
  readonly ruleRefused: boolean;
  /** The tier signals other than the score band (tier-caps.ts) that keep an answer to it from `high`. */
  readonly caps: readonly TierCode[];
}

export interface RowOptions {
  /** The production settings: retrieval depth, citation policy, gate switches. */
  readonly config: Pick<Config, 'ask' | 'gate'>;
  /** Any valid model: features do not depend on it; the gate needs one to run. */
  readonly model: AnswerabilityModel;
  /** Other sets' questions asked of this KB (out of scope), with the set each came from. */
  readonly foreign?: readonly { readonly set: string; readonly question: BenchmarkQuestion }[];
  readonly onProgress?: (done: number, total: number) => void;
}

/** Runs every question of a set (and its leave-one-out twin) through retrieval and the production gate. */
export function gateRows(set: BenchmarkSet, index: KnowledgeIndex, options: RowOptions): GateRow[] {
  const rows: GateRow[] = [];
  const ask = (question: BenchmarkQuestion, kind: RowKind, questionSet: string, exclude: ReadonlySet<number> = new Set()) => {
    const { gate, cited, input } = assessQuestion(index, question.question, { config: options.config, model: options.model, exclude });
    const right = kind === 'answerable' && citesRightFact(question, cited());
    rows.push({
      set: set.name,
      questionSet,
      kind,
      questionId: question.id,
      reported: question.reported && kind !== 'out-of-scope',
      features: featureVector(gate.answerability.features),
      label: right ? 1 : 0,
      ruleRefused: gate.verdicts.some((v) => !v.pass && v.layer !== 'answerability'),
      // The tier signals read the question and its evidence, not the model: the same whatever model scores the row.
      caps: tierCaps(input).map((cap) => cap.code),
    });
  };
  const total = set.questions.length + (options.foreign?.length ?? 0);
  set.questions.forEach((q, i) => {
    if (q.answerable) {
      ask(q, 'answerable', set.name);
      if (q.factIds.length > 0) ask(q, 'left-out', set.name, index.resolveExternalIds(q.factIds).keys);
    } else {
      ask(q, 'unanswerable', set.name);
    }
    if ((i + 1) % 500 === 0) options.onProgress?.(i + 1, total);
  });
  for (const { set: origin, question } of options.foreign ?? []) ask(question, 'out-of-scope', origin);
  options.onProgress?.(total, total);
  return rows;
}

/** A seeded sample of other sets' questions for one KB: the out-of-scope questions it must refuse. */
export function foreignQuestions(
  sets: readonly BenchmarkSet[],
  kb: string,
  perSet: number,
  seed: number,
): { set: string; question: BenchmarkQuestion }[] {
  return sets
    .filter((s) => s.name !== kb)
    .flatMap((s) => {
      const rng = mulberry32(seed + s.name.length * 7919);
      const pool = [...s.questions];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [pool[i], pool[j]] = [pool[j] as BenchmarkQuestion, pool[i] as BenchmarkQuestion];
      }
      return pool.slice(0, perSet).map((question) => ({ set: s.name, question }));
    });
}

export const RELEVANCE_INDEX = FEATURE_NAMES.indexOf('relevance');
