import type { CategoryRow } from '../core/eval/category-summary.js';
import type { LooReport } from './leave-one-out.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * `candor eval loo --markdown FILE`: the leave-one-out figures, the abstention
 * rate per question category and which layer refused, as a Markdown page to
 * paste into a README, a pull request or a wiki.
 */
export function renderLooMarkdown(kb: string, questionsFile: string, report: LooReport, categories: readonly CategoryRow[]): string {
  const s = report.summary;
  const lines = [
    `# Leave-one-out evaluation: knowledge base "${kb}"`,
    '',
    `Questions: \`${questionsFile}\` (${s.n}). Each is asked with the full knowledge base and with its own fact removed; with the fact removed, abstaining is right.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| answered with the full KB | ${pct(s.fullAnswered)} |`,
    `| answered citing its own fact | ${pct(s.fullAnsweredWithFact)} |`,
    `| abstained under leave-one-out | ${pct(s.looAbstained)} |`,
    `| asks refused by the hard gate (of ${2 * s.n}) | ${s.hardGateRefusals} |`,
  ];
  if (categories.length > 0) {
    lines.push(
      '',
      '## Abstention by question category',
      '',
      "Fact questions count with their fact removed; don't-know questions (no fact answers them) with the full knowledge base.",
      '',
      '| category | questions | abstained | rate |',
      '|---|---|---|---|',
    );
    for (const c of categories) lines.push(`| ${c.category.replace(/[|\n]/g, ' ')} | ${c.n} | ${c.abstained} | ${pct(c.abstentionRate)} |`);
  }
  const reasons = [...new Set([...Object.keys(s.fullRefusedBy), ...Object.keys(s.looRefusedBy)])].sort();
  if (reasons.length > 0) {
    lines.push('', '## Refusals by deciding reason', '', '| reason | full KB | leave-one-out |', '|---|---|---|');
    for (const r of reasons) lines.push(`| ${r} | ${s.fullRefusedBy[r] ?? 0} | ${s.looRefusedBy[r] ?? 0} |`);
  }
  return `${lines.join('\n')}\n`;
}
