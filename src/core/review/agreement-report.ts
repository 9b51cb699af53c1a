import { cohensKappa } from '../agreement/cohens-kappa.js';
import { compareRaters, round } from '../agreement/compare-raters.js';
import { fleissCounts, fleissKappa } from '../agreement/fleiss-kappa.js';
import { krippendorffAlpha } from '../agreement/krippendorff-alpha.js';
import { majorityLabel } from '../agreement/majority-label.js';
import type { ClassMetrics } from '../agreement/per-class-metrics.js';
import { REVIEW_TASKS, type ReviewTask } from './review-tasks.js';

/** One annotator's current label for one item and task. Judges are annotators named `llm:<spec>@<version>` or `rule:<name>@<version>`. */
export interface LabelRow {
  readonly sampleId: number;
  readonly task: string;
  readonly annotator: string;
  readonly value: string;
}

/**
 * The agreement report (stored as JSON; `candor report agreement --json` prints it):
 *
 *   { version: 1, tasks: [{ task, items, humans, humanHuman: {…}, judges: [{ judge, items,
 *     noMajority, percentAgreement, cohensKappa, kappaCI, weightedKappa?, krippendorffAlpha,
 *     confusion, perClass, disagreements: [{ sampleId, judge, humanMajority, humans }] }] }] }
 *
 * Statistics that are undefined for the data (no pairs, one category only) are null.
 */
/** A report as the agreement job stores it: the report, when and for which run it was made, what the judges did. */
export type StoredAgreementReport = AgreementReport & {
  readonly runKey: string;
  readonly createdAt: string;
  readonly judgeRuns?: readonly unknown[];
};

export interface AgreementReport {
  readonly version: 1;
  readonly tasks: TaskAgreement[];
}

export interface TaskAgreement {
  readonly task: string;
  /** Items with at least one human label. */
  readonly items: number;
  readonly humans: readonly string[];
  readonly humanHuman: {
    /** Items labelled by two or more humans. */
    readonly items: number;
    /** Share of agreeing pairs of human labels on the same item. */
    readonly percentAgreement: number | null;
    /** Between the two humans who labelled most, on the items they share. */
    readonly cohensKappa: { readonly between: readonly [string, string]; readonly items: number; readonly kappa: number | null } | null;
    /** Only when every multiply-labelled item has the same number of human labels. */
    readonly fleissKappa: number | null;
    readonly krippendorffAlpha: number | null;
    readonly note?: string;
  };
  readonly judges: JudgeAgreement[];
}

export interface JudgeAgreement {
  readonly judge: string;
  /** Items with both a judge label and a human majority. */
  readonly items: number;
  /** Items whose human labels tie: left out of the comparison. */
  readonly noMajority: number;
  readonly percentAgreement: number | null;
  readonly cohensKappa: number | null;
  /** Percentile bootstrap 95% interval of Cohen's kappa (seeded). */
  readonly kappaCI: { readonly low: number | null; readonly high: number | null; readonly iterations: number };
  /** Linearly and quadratically weighted kappa, for an ordinal task. */
  readonly weightedKappa?: { readonly linear: number | null; readonly quadratic: number | null };
  /** Alpha over the judge and every human together. */
  readonly krippendorffAlpha: number | null;
  /** Rows: human majority; columns: judge. */
  readonly confusion: { readonly categories: readonly string[]; readonly matrix: readonly (readonly number[])[] };
  readonly perClass: readonly ClassMetrics[];
  readonly disagreements: readonly {
    readonly sampleId: number;
    readonly judge: string;
    readonly humanMajority: string;
    readonly humans: Readonly<Record<string, string>>;
  }[];
}

export interface ReportOptions {
  readonly seed?: number;
  /** Bootstrap resamples. @default 1000 */
  readonly iterations?: number;
  readonly tasks?: readonly ReviewTask[];
}

export function buildAgreementReport(labels: readonly LabelRow[], options: ReportOptions = {}): AgreementReport {
  const tasks = options.tasks ?? REVIEW_TASKS;
  const out: TaskAgreement[] = [];
  for (const task of tasks) {
    const rows = labels.filter((l) => l.task === task.id && task.outcomes.includes(l.value));
    if (rows.length === 0) continue;
    out.push(taskAgreement(task, rows, options));
  }
  return { version: 1, tasks: out };
}

/** Judges (LLM `llm:<spec>@<v>` and rule `rule:<name>@<v>`) are compared with everyone else, the reference annotators. */
export const isJudgeAnnotator = (annotator: string): boolean => annotator.startsWith('llm:') || annotator.startsWith('rule:');
const isJudge = isJudgeAnnotator;
const num = (x: number): number | null => (Number.isFinite(x) ? round(x) : null);

function taskAgreement(task: ReviewTask, rows: readonly LabelRow[], options: ReportOptions): TaskAgreement {
  const categories = [...task.outcomes];
  const human = new Map<number, Map<string, string>>();
  const byJudge = new Map<string, Map<number, string>>();
  for (const row of rows) {
    if (isJudge(row.annotator)) {
      const m = byJudge.get(row.annotator) ?? new Map<number, string>();
      m.set(row.sampleId, row.value);
      byJudge.set(row.annotator, m);
    } else {
      const m = human.get(row.sampleId) ?? new Map<string, string>();
      m.set(row.annotator, row.value);
      human.set(row.sampleId, m);
    }
  }
  const items = [...human.keys()].sort((a, b) => a - b);
  const humans = [...new Set(rows.filter((r) => !isJudge(r.annotator)).map((r) => r.annotator))].sort();
  const level = task.ordinal ? 'ordinal' : 'nominal';

  return {
    task: task.id,
    items: items.length,
    humans,
    humanHuman: humanAgreement(items, human, humans, categories, level),
    judges: [...byJudge.keys()]
      .sort()
      .map((judge) => judgeAgreement(task, judge, byJudge.get(judge) as Map<number, string>, items, human, humans, options)),
  };
}

function humanAgreement(
  items: readonly number[],
  human: ReadonlyMap<number, ReadonlyMap<string, string>>,
  humans: readonly string[],
  categories: string[],
  level: 'nominal' | 'ordinal',
): TaskAgreement['humanHuman'] {
  const multi = items.filter((id) => (human.get(id)?.size ?? 0) >= 2);
  let agree = 0;
  let pairs = 0;
  for (const id of multi) {
    const values = [...(human.get(id) as ReadonlyMap<string, string>).values()];
    for (let i = 0; i < values.length; i++)
      for (let j = i + 1; j < values.length; j++) {
        pairs += 1;
        if (values[i] === values[j]) agree += 1;
      }
  }
  const activity = humans
    .map((h) => ({ h, n: items.filter((id) => human.get(id)?.has(h)).length }))
    .sort((a, b) => b.n - a.n || (a.h < b.h ? -1 : 1));
  let cohen: TaskAgreement['humanHuman']['cohensKappa'] = null;
  const [first, second] = activity;
  if (first && second) {
    const shared = items.filter((id) => human.get(id)?.has(first.h) && human.get(id)?.has(second.h));
    const a = shared.map((id) => human.get(id)?.get(first.h) as string);
    const b = shared.map((id) => human.get(id)?.get(second.h) as string);
    cohen = {
      between: [first.h, second.h],
      items: shared.length,
      kappa: shared.length > 0 ? num(cohensKappa(a, b, { categories })) : null,
    };
  }
  const sizes = new Set(multi.map((id) => human.get(id)?.size));
  let fleiss: number | null = null;
  let note: string | undefined;
  if (multi.length > 0 && sizes.size === 1) {
    fleiss = num(
      fleissKappa(
        fleissCounts(
          multi.map((id) => [...(human.get(id) as ReadonlyMap<string, string>).values()]),
          categories,
        ).counts,
      ),
    );
  } else if (multi.length > 0) {
    note = "Fleiss' kappa omitted: items have different numbers of human labels (Krippendorff's alpha allows that).";
  }
  const matrix = humans.map((h) => items.map((id) => human.get(id)?.get(h) ?? null));
  return {
    items: multi.length,
    percentAgreement: pairs > 0 ? round(agree / pairs) : null,
    cohensKappa: cohen,
    fleissKappa: fleiss,
    krippendorffAlpha: multi.length > 0 ? num(krippendorffAlpha(matrix, level, { categories })) : null,
    ...(note ? { note } : {}),
  };
}

function judgeAgreement(
  task: ReviewTask,
  judge: string,
  judged: ReadonlyMap<number, string>,
  items: readonly number[],
  human: ReadonlyMap<number, ReadonlyMap<string, string>>,
  humans: readonly string[],
  options: ReportOptions,
): JudgeAgreement {
  const categories = [...task.outcomes];
  const truth: string[] = [];
  const predicted: string[] = [];
  const compared: number[] = [];
  let noMajority = 0;
  for (const id of items) {
    const j = judged.get(id);
    if (j === undefined) continue;
    const majority = majorityLabel([...(human.get(id) as ReadonlyMap<string, string>).values()]);
    if (majority === null) {
      noMajority += 1;
      continue;
    }
    truth.push(String(majority));
    predicted.push(j);
    compared.push(id);
  }
  const stats = compareRaters(truth, predicted, categories, {
    seed: options.seed ?? 1,
    iterations: options.iterations ?? 1000,
    ordinal: task.ordinal,
  });
  const withJudge = [...humans.map((h) => items.map((id) => human.get(id)?.get(h) ?? null)), items.map((id) => judged.get(id) ?? null)];
  return {
    judge,
    items: compared.length,
    noMajority,
    percentAgreement: stats.percentAgreement,
    cohensKappa: stats.cohensKappa,
    kappaCI: stats.kappaCI,
    ...(stats.weightedKappa ? { weightedKappa: stats.weightedKappa } : {}),
    krippendorffAlpha: num(krippendorffAlpha(withJudge, task.ordinal ? 'ordinal' : 'nominal', { categories })),
    confusion: stats.confusion,
    perClass: stats.perClass,
    disagreements: compared
      .map((id, i) => ({ id, i }))
      .filter(({ i }) => truth[i] !== predicted[i])
      .map(({ id, i }) => ({
        sampleId: id,
        judge: predicted[i] as string,
        humanMajority: truth[i] as string,
        humans: Object.fromEntries(human.get(id) ?? []),
      })),
  };
}
