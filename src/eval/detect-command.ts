import { detectReport, type DetectReport } from '../core/judge/detect-report.js';
import { readJsonl } from '../kb/read-jsonl.js';
import { CandorError } from '../kernel/errors.js';
import { abstainedLabel, responseRowSchema, RESPONSES_FORMAT } from '../review/response-rows.js';

/** `eval detect`'s options, as the command line parses them. */
export interface DetectOptions {
  /** The replies file (.jsonl). */
  readonly responses: string;
  readonly json?: boolean | undefined;
}

/**
 * `candor eval detect --responses FILE [--json]`: the rule abstention detector
 * over a file of replies; with labels (`label`, or PolicyBench's `abstention`),
 * how well it agrees with them. Needs no model and no database.
 */
export function evalDetect(options: DetectOptions, out: (text: string) => void): number {
  const file = options.responses;
  const rows = readJsonl(file, responseRowSchema('abstention'), { expected: RESPONSES_FORMAT });
  const seen = new Map<string, number>();
  const problems: string[] = [];
  const inputs = rows.map(({ line, value }) => {
    if (seen.has(value.id)) problems.push(`line ${line}: id "${value.id}" already used on line ${seen.get(value.id)}`);
    seen.set(value.id, line);
    const label = value.label === undefined ? undefined : abstainedLabel(value.label);
    if (label === null)
      problems.push(`line ${line}: label "${value.label}" is not an abstention label (yes/no, true/false, abstain/answer)`);
    return { id: value.id, question: value.question, response: value.response, ...(label ? { label } : {}) };
  });
  if (problems.length > 0)
    throw new CandorError('file_malformed', `${file}: ${problems.length} bad lines:\n  ${problems.slice(0, 10).join('\n  ')}`);
  const report = detectReport(inputs);
  out(options.json ? JSON.stringify(report) : formatDetectReport(report));
  return 0;
}

const word = (v: 'yes' | 'no') => (v === 'yes' ? 'abstains' : 'answers');
const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const fixed = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text).replace(/\s+/g, ' ');

/** Plain text: one line per reply, then the agreement with the labels and the disagreements. */
export function formatDetectReport(report: DetectReport): string {
  const lines = report.rows.map(
    (r) =>
      `${r.id}\t${word(r.verdict)}${r.label ? `\tlabel ${word(r.label)}\t${r.label === r.verdict ? 'agree' : 'DISAGREE'}` : ''}\t${r.why}`,
  );
  lines.push('', `${report.detector}: ${report.n} replies, ${report.abstained} abstain, ${report.n - report.abstained} answer.`);
  const a = report.agreement;
  if (!a) return [...lines, 'No labels in the file: nothing to compare with.'].join('\n');
  const [yes, no] = a.confusion.matrix as [number[], number[]];
  lines.push(
    `Against the labels (${a.items} replies): agreement ${pct(a.percentAgreement)}, Cohen's kappa ${fixed(a.cohensKappa)} [${fixed(a.kappaCI.low)}, ${fixed(a.kappaCI.high)}] (95% bootstrap, ${a.kappaCI.iterations} resamples)`,
    'Confusion (rows: label, columns: detector):',
    `             abstains  answers`,
    `  abstains   ${String(yes[0]).padStart(8)}  ${String(yes[1]).padStart(7)}`,
    `  answers    ${String(no[0]).padStart(8)}  ${String(no[1]).padStart(7)}`,
    `Disagreements (${a.disagreements.length}):`,
    ...a.disagreements.map(
      (d) =>
        `  ${d.id}: label ${word(d.label)}, detector ${word(d.verdict)} (${d.why})\n    Q: ${clip(d.question, 140)}\n    R: ${clip(d.response, 240)}`,
    ),
  );
  return lines.join('\n');
}
