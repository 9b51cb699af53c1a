import { FACT_CATEGORY } from './dontknow-categories.js';

/** What the category summary needs of a question line and of its evaluation. */
export interface CategorisedQuestion {
  readonly id: string;
  readonly factId?: string | undefined;
  readonly factIds?: readonly string[] | undefined;
  /** false: no fact answers it (counted with the full KB). @default true */
  readonly answerable?: boolean | undefined;
  readonly category?: string | undefined;
}

export interface EvaluatedItem {
  readonly id: string;
  readonly full: { readonly decision: 'answer' | 'abstain' };
  readonly loo?: { readonly decision: 'answer' | 'abstain' } | undefined;
}

export interface CategoryRow {
  readonly category: string;
  readonly n: number;
  /** Abstentions where abstaining was right: with the fact removed for a fact question, with the full KB otherwise. */
  readonly abstained: number;
  readonly abstentionRate: number;
}

/**
 * Abstention per question category ("dontknowness" categories and `fact`), in
 * the run where abstaining is the right answer: a fact question is counted
 * with its fact removed (leave-one-out), a don't-know question with the full
 * KB, since no fact answers it. Lines without a category count as `fact` when
 * they name a fact, `unanswerable` when marked so, and `uncategorised`
 * otherwise. Categories in first-seen order.
 */
export function summariseCategories(questions: readonly CategorisedQuestion[], items: readonly EvaluatedItem[]): CategoryRow[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const rows = new Map<string, { n: number; abstained: number }>();
  for (const q of questions) {
    const item = byId.get(q.id);
    if (!item) continue;
    const namesFact = q.answerable !== false && (q.factId !== undefined || (q.factIds?.length ?? 0) > 0);
    const category = q.category ?? (namesFact ? FACT_CATEGORY : q.answerable === false ? 'unanswerable' : 'uncategorised');
    const run = namesFact ? (item.loo ?? item.full) : item.full;
    const row = rows.get(category) ?? { n: 0, abstained: 0 };
    row.n += 1;
    if (run.decision === 'abstain') row.abstained += 1;
    rows.set(category, row);
  }
  return [...rows].map(([category, { n, abstained }]) => ({
    category,
    n,
    abstained,
    abstentionRate: Math.round((abstained / n) * 10_000) / 10_000,
  }));
}
