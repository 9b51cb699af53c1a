import { CandorError } from '../errors.js';
import type { Candor } from '../main.js';
import { kbGapReport, type GapReport } from './kb-gaps.js';

/** `candor report gaps [--kb NAME] [--days N] [--json]`. */
export async function gapsCommand(
  app: Candor,
  values: { kb?: string | undefined; days?: string | undefined; json?: boolean | undefined },
  out: (text: string) => void,
): Promise<number> {
  const days = values.days === undefined ? 30 : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new CandorError('input_invalid', '--days must be a whole number of days from 1 to 3650');
  const report = await kbGapReport(app.store.db, app.indexes, { kb: values.kb ?? app.config.kb.defaultName, days });
  out(values.json ? JSON.stringify(report) : formatGaps(report));
  return 0;
}

/** The report as text for a terminal: one block per topic, largest first. */
export function formatGaps(report: GapReport): string {
  const head =
    `KB gaps in "${report.kb.name}" (version ${report.kb.version}), last ${report.days} days: ` +
    `${report.refusals} refusals, ${report.distinctQuestions} distinct questions, ${report.groups.length} topics` +
    (report.failures > 0 ? ` (and ${report.failures} fail-closed refusals, which are faults, not gaps)` : '') +
    (report.truncated ? ' (the newest refusals only)' : '');
  if (report.groups.length === 0) return `${head}\nNothing refused for lack of knowledge in this window.`;
  const blocks = report.groups.map((g) => {
    const reasons = Object.entries(g.reasons)
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    const examples = g.examples.map((e) => `     - ${e.question}${e.times > 1 ? ` (${e.times}×)` : ''}`);
    return [`  ${String(g.count).padStart(4)}× ${g.topic}  (${g.questions} questions; ${reasons})`, ...examples].join('\n');
  });
  return [head, ...blocks].join('\n');
}
