import type { AnswerabilityModel } from '../../core/gate/answerability-model.js';
import { confidentAbove } from '../../core/gate/gate.js';
import { predictLogistic } from '../../core/learn/logistic-regression.js';
import { confidentBand, refusableKind } from './confident-band.js';
import { RELEVANCE_INDEX, type GateRow } from './gate-rows.js';
import { trainAnswerability, type TrainOptions } from './train-answerability.js';

/** A set's headline figures for one way of deciding. */
export interface SetFigures {
  readonly set: string;
  /** Reported answerable questions answered citing a right fact (full KB). */
  readonly answered: number;
  /** Reported questions that should be refused and were: left-out twins, or adversarial unanswerables. */
  readonly abstained: number;
  /** Other sets' questions refused by this KB. */
  readonly outOfScopeAbstained: number;
  readonly n: { readonly answerable: number; readonly refusable: number; readonly outOfScope: number };
  /**
   * Of the answers given to reported questions (answerable, and the refusable kind counted above), the share
   * that carries the caveat: among right answers and among wrong ones. Absent for deciders without tiers.
   */
  readonly caveated?: { readonly right: number; readonly wrong: number };
  /** Answers given plainly (confidence `high`) to reported questions, and the share of them that is right. Absent for deciders without tiers. */
  readonly high?: { readonly answers: number; readonly precision: number };
}

export type Decide = ((row: GateRow) => boolean) & { readonly caveats?: (row: GateRow) => boolean };

/** Answer when no rule refused and the model's score reaches its threshold. */
export function modelDecides(model: AnswerabilityModel, threshold = model.threshold): Decide {
  const band = Math.max(confidentAbove(model), threshold);
  return Object.assign((row: GateRow) => !row.ruleRefused && predictLogistic(model, row.features) >= threshold, {
    caveats: (row: GateRow) => row.caps.length > 0 || predictLogistic(model, row.features) < band,
  });
}

/** The plain-BM25 baseline: answer when the best normalised BM25 score reaches t. */
export function bm25Decides(t: number): Decide {
  return (row) => (row.features[RELEVANCE_INDEX] as number) > 0 && (row.features[RELEVANCE_INDEX] as number) >= t;
}

/** Figures per set; a set whose reported negatives are unanswerable questions counts those, else its left-out twins. */
export function figures(rows: readonly GateRow[], decide: Decide): SetFigures[] {
  const sets = [...new Set(rows.map((r) => r.set))];
  return sets.map((set) => {
    const mine = rows.filter((r) => r.set === set);
    const answerable = mine.filter((r) => r.reported && r.kind === 'answerable');
    const negativeKind = refusableKind(mine);
    const refusable = mine.filter((r) => r.reported && r.kind === negativeKind);
    const outOfScope = mine.filter((r) => r.kind === 'out-of-scope');
    const given = [...answerable, ...refusable].filter((r) => decide(r));
    const rightOnes = given.filter((r) => r.label === 1);
    const wrongOnes = given.filter((r) => r.label === 0);
    const caveats = decide.caveats;
    return {
      set,
      ...(caveats
        ? {
            caveated: {
              right: share(rightOnes.filter(caveats).length, rightOnes.length),
              wrong: share(wrongOnes.filter(caveats).length, wrongOnes.length),
            },
            high: {
              answers: given.filter((r) => !caveats(r)).length,
              precision: share(rightOnes.filter((r) => !caveats(r)).length, given.filter((r) => !caveats(r)).length),
            },
          }
        : {}),
      answered: share(answerable.filter((r) => r.label === 1 && decide(r)).length, answerable.length),
      abstained: share(refusable.filter((r) => !decide(r)).length, refusable.length),
      outOfScopeAbstained: share(outOfScope.filter((r) => !decide(r)).length, outOfScope.length),
      n: { answerable: answerable.length, refusable: refusable.length, outOfScope: outOfScope.length },
    };
  });
}

/**
 * The BM25 threshold a user would pick from these rows: the one that maximises
 * the mean over sets of (answered + abstained) / 2, on a 0.01 grid.
 */
export function fitBm25Threshold(rows: readonly GateRow[]): number {
  let best = 0;
  let bestValue = -1;
  for (let t = 0; t <= 1.0001; t += 0.01) {
    const f = figures(rows, bm25Decides(t));
    const value = f.reduce((total, s) => total + (s.answered + s.abstained) / 2, 0) / f.length;
    if (value > bestValue + 1e-12) [best, bestValue] = [Number(t.toFixed(2)), value];
  }
  return best;
}

export interface Validation {
  /** The model trained on every set, measured on every set. */
  readonly inSample: readonly SetFigures[];
  /** Each set measured by a model trained without it (its KB, its questions, its out-of-scope questions elsewhere). */
  readonly leaveOneSetOut: readonly SetFigures[];
  readonly bm25: { readonly threshold: number; readonly inSample: readonly SetFigures[]; readonly leaveOneSetOut: readonly SetFigures[] };
}

export function validate(rows: readonly GateRow[], model: AnswerabilityModel, options: TrainOptions): Validation {
  const sets = [...new Set(rows.map((r) => r.set))];
  const without = (set: string) => rows.filter((r) => r.set !== set && r.questionSet !== set);
  const own = (set: string) => rows.filter((r) => r.set === set);
  const threshold = fitBm25Threshold(rows);
  return {
    inSample: figures(rows, modelDecides(model)),
    leaveOneSetOut: sets.flatMap((set) => {
      const fitted = trainAnswerability(without(set), options);
      return figures(own(set), modelDecides({ ...fitted, confident: confidentBand(without(set), fitted) }));
    }),
    bm25: {
      threshold,
      inSample: figures(rows, bm25Decides(threshold)),
      leaveOneSetOut: sets.flatMap((set) => figures(own(set), bm25Decides(fitBm25Threshold(without(set))))),
    },
  };
}

function share(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 10_000) / 10_000;
}
