import type { Outcome, ScoredRow } from './score-replies.js';

/** A count, its share of all questions, and its rate within the group it belongs to. */
export interface Tally {
  readonly count: number;
  /** Of all questions (the four outcomes' shares add up to 1). */
  readonly share: number;
  /** Of `of`. */
  readonly rate: number;
  readonly of: 'answerable' | 'unanswerable' | 'answers';
}

export interface ExampleTotals {
  readonly questions: number;
  readonly answerable: number;
  readonly unanswerable: number;
  /** Replies that gave an answer (right or wrong). */
  readonly answers: number;
  readonly rightAnswers: Tally;
  readonly wrongAnswers: Tally & {
    /** Answerable, answered, but the expected strings are not in the first line. */
    readonly answerableMissing: number;
    /** Unanswerable, answered all the same (a missed refusal). */
    readonly unanswerableAnswered: number;
  };
  readonly falseRefusals: Tally;
  readonly rightRefusals: Tally;
  /** Answers with a visible caveat (confidence 'medium'); null while decisions carry no confidence. */
  readonly caveats: {
    readonly wrongAnswers: { readonly count: number; readonly rate: number };
    readonly rightAnswers: { readonly count: number; readonly rate: number };
  } | null;
  /** What the `high` tier promises, measured: null while decisions carry no confidence. */
  readonly confidence: ConfidenceFigures | null;
}

/** `high` is a promise that the first line holds the answer; these say how well it is kept. */
export interface ConfidenceFigures {
  /** Answers marked `high`, and how many of them are right (the answer in the first line): precision of `high`. */
  readonly high: { readonly count: number; readonly right: number; readonly precision: number };
  /** Right answers marked `high`, of all right answers. */
  readonly rightMarkedHigh: { readonly count: number; readonly rate: number };
  /** Wrong answers (answerable without the answer first, or unanswerable answered) with a caveat, and without one. */
  readonly wrongCaveated: number;
  readonly wrongUncaveated: number;
}

const ratio = (count: number, n: number) => (n === 0 ? 0 : Math.round((count / n) * 10_000) / 10_000);

/** The totals of a run: each outcome as a count, a share of all questions and a rate within its group. */
export function summariseOutcomes(rows: readonly ScoredRow[]): ExampleTotals {
  const n = rows.length;
  const answerable = rows.filter((r) => r.answerable).length;
  const unanswerable = n - answerable;
  const answers = rows.filter((r) => r.decision === 'answer').length;
  const withOutcome = (outcome: Outcome) => rows.filter((r) => r.outcome === outcome);
  const tally = (outcome: Outcome, of: Tally['of'], groupSize: number): Tally => {
    const count = withOutcome(outcome).length;
    return { count, share: ratio(count, n), rate: ratio(count, groupSize), of };
  };
  const wrong = withOutcome('wrong-answer');
  const right = withOutcome('right-answer');
  const caveated = (group: readonly ScoredRow[]) => {
    const count = group.filter((r) => r.confidence === 'medium').length;
    return { count, rate: ratio(count, group.length) };
  };
  return {
    questions: n,
    answerable,
    unanswerable,
    answers,
    rightAnswers: tally('right-answer', 'answerable', answerable),
    wrongAnswers: {
      ...tally('wrong-answer', 'answers', answers),
      answerableMissing: wrong.filter((r) => r.answerable).length,
      unanswerableAnswered: wrong.filter((r) => !r.answerable).length,
    },
    falseRefusals: tally('false-refusal', 'answerable', answerable),
    rightRefusals: tally('right-refusal', 'unanswerable', unanswerable),
    caveats: rows.some((r) => r.confidence !== null) ? { wrongAnswers: caveated(wrong), rightAnswers: caveated(right) } : null,
    confidence: rows.some((r) => r.confidence !== null) ? confidenceFigures(right, wrong) : null,
  };
}

function confidenceFigures(right: readonly ScoredRow[], wrong: readonly ScoredRow[]): ConfidenceFigures {
  const rightHigh = right.filter((r) => r.confidence === 'high').length;
  const wrongHigh = wrong.filter((r) => r.confidence === 'high').length;
  return {
    high: { count: rightHigh + wrongHigh, right: rightHigh, precision: ratio(rightHigh, rightHigh + wrongHigh) },
    rightMarkedHigh: { count: rightHigh, rate: ratio(rightHigh, right.length) },
    wrongCaveated: wrong.filter((r) => r.confidence === 'medium').length,
    wrongUncaveated: wrongHigh,
  };
}
