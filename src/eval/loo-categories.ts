import { writeFileSync } from 'node:fs';

import { summariseCategories, type CategoryRow } from '../core/eval/category-summary.js';
import { CandorError } from '../kernel/errors.js';
import type { LooQuestion, LooReport } from './leave-one-out.js';
import { renderLooMarkdown } from './loo-markdown.js';

/**
 * The leave-one-out report extended with the abstention rate per question
 * category (`categories`), and written as Markdown when asked. The report's
 * own fields are unchanged, so `--json` readers of the old shape still work.
 */
export function extendLooReport(
  report: LooReport,
  questions: readonly LooQuestion[],
  options: { kb: string; questionsFile: string; markdown?: string | undefined; markdownAppendix?: string | undefined },
): LooReport & { categories: CategoryRow[] } {
  const categories = summariseCategories(questions, report.items);
  if (options.markdown) {
    try {
      writeFileSync(
        options.markdown,
        renderLooMarkdown(options.kb, options.questionsFile, report, categories) + (options.markdownAppendix ?? ''),
      );
    } catch (cause) {
      throw new CandorError('file_unwritable', `Cannot write the Markdown summary to ${options.markdown}: ${(cause as Error).message}`, {
        cause,
      });
    }
  }
  return { ...report, categories };
}

/** One line for the text output: "by category: fact 67.0% of 112, unknowable 100.0% of 5". */
export function formatCategories(categories: readonly CategoryRow[]): string {
  return `abstained by category: ${categories.map((c) => `${c.category} ${(c.abstentionRate * 100).toFixed(1)}% of ${c.n}`).join(', ')}`;
}
