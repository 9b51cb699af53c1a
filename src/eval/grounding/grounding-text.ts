import type { FlaggingConfusion } from '../../core/eval/flagging-figures.js';
import type { ConfigurationOutcomes, OutcomeShares } from './grounding-outcomes.js';
import type { CheckFigures, GroundingReport, Interval } from './grounding-report.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const fixed = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const range = (ci: Interval, show: (x: number | null) => string) => (ci.low === null ? '' : ` [${show(ci.low)}, ${show(ci.high)}]`);

/** The checks in the order they run, then the combination (what the ask path does). */
function rows(report: GroundingReport): [string, CheckFigures][] {
  const { lexical, entailment } = report.checks;
  return [
    [`lexical (support ≥ ${lexical.threshold})`, lexical],
    ...(entailment ? [['entailment (model)', entailment] as [string, CheckFigures]] : []),
    ['combined', report.summary],
  ];
}

function counts(report: GroundingReport): string {
  const s = report.summary;
  return (
    `${s.rows} responses: ${s.declined} declined (${s.detector}; left out), ${s.n} scored ` +
    `(${s.supported} supported, ${s.unsupported} unsupported, ${s.unlabelled} unlabelled).`
  );
}

/** Plain text: the counts, one line per check, the confusion matrix of the combination. */
export function formatGroundingReport(report: GroundingReport): string {
  const s = report.summary;
  const lines = [`eval grounding: ${counts(report)}`, ''];
  for (const [name, f] of rows(report))
    lines.push(
      `${name}: unsupported flagged ${pct(f.unsupportedFlagged)}${range(f.ci.unsupportedFlagged, pct)}, ` +
        `supported passed ${pct(f.supportedPassed)}${range(f.ci.supportedPassed, pct)}, ` +
        `AUC ${fixed(f.auc)}${range(f.ci.auc, fixed)}; ${f.flagged} of ${f.n} flagged`,
    );
  const lexical = report.checks.lexical;
  lines.push(
    `lexical support against every fact shown (cited or not): AUC ${fixed(lexical.aucAnyEvidence)}${range(lexical.aucAnyEvidenceCI, fixed)}`,
  );
  if (report.checks.entailment?.modelErrors)
    lines.push(`entailment: ${report.checks.entailment.modelErrors} model failures counted as flagged`);
  lines.push(
    '',
    `Confusion, combined (rows: label, columns: check; ${s.labelled} labelled):`,
    ...confusionLines(s.confusion),
    '',
    `95% percentile bootstrap intervals, ${s.bootstrap.iterations} resamples, seed ${s.bootstrap.seed}.`,
    '',
    'Answered right / abstained right / answered wrong (no gate here): alone | checks refuse | checks + fallback (quoted)',
    ...report.outcomes.map((o) => `${o.configuration} (n ${o.n}): ${outcomeCells(o).join(' | ')}`),
  );
  return lines.join('\n');
}

const triple = (o: OutcomeShares) => `${pct(o.answeredRight)} / ${pct(o.abstainedRight)} / ${pct(o.answeredWrong)}`;

function outcomeCells(o: ConfigurationOutcomes): string[] {
  return [triple(o.alone), triple(o.checksRefuse), `${triple(o.checksFallback)} (${pct(o.checksFallback.quoted)})`];
}

function confusionLines(c: FlaggingConfusion): string[] {
  return [
    '                 passed  flagged',
    `  supported    ${String(c.supported.passed).padStart(8)} ${String(c.supported.flagged).padStart(8)}`,
    `  unsupported  ${String(c.unsupported.passed).padStart(8)} ${String(c.unsupported.flagged).padStart(8)}`,
  ];
}

/** `--markdown FILE`: the same figures as a short Markdown page. */
export function renderGroundingMarkdown(responsesFile: string, report: GroundingReport): string {
  const s = report.summary;
  const cell = (x: number | null, ci: Interval, show: (x: number | null) => string) => `${show(x)}${range(ci, show)}`;
  const lines = [
    `# Grounding check: \`${responsesFile}\``,
    '',
    `${counts(report)} A response that declines is no grounding failure; rates and AUC are over the labelled answers.`,
    '',
    '| check | unsupported flagged | supported passed | AUC of its score | flagged |',
    '|---|---|---|---|---|',
    ...rows(report).map(
      ([name, f]) =>
        `| ${name} | ${cell(f.unsupportedFlagged, f.ci.unsupportedFlagged, pct)} | ${cell(f.supportedPassed, f.ci.supportedPassed, pct)} | ` +
        `${cell(f.auc, f.ci.auc, fixed)} | ${f.flagged} of ${f.n} |`,
    ),
    '',
    `Lexical support against every fact shown (cited or not): AUC ${fixed(report.checks.lexical.aucAnyEvidence)}.`,
    '',
    '| combined | passed | flagged |',
    '|---|---|---|',
    `| supported | ${s.confusion.supported.passed} | ${s.confusion.supported.flagged} |`,
    `| unsupported | ${s.confusion.unsupported.passed} | ${s.confusion.unsupported.flagged} |`,
    '',
    `95% percentile bootstrap intervals in brackets (${s.bootstrap.iterations} resamples, seed ${s.bootstrap.seed}).`,
    '',
    'Answered right / abstained right / answered wrong per configuration, over the labelled responses (no gate here: behind the gate, see `eval loo --behind`). Checks + fallback: a withheld answer is replaced by the quoted evidence, right when the answer was supported; in brackets the share quoted.',
    '',
    '| configuration | n | alone | checks refuse | checks + fallback |',
    '|---|---|---|---|---|',
    ...report.outcomes.map((o) => `| ${o.configuration.replace(/[|\n]/g, ' ')} | ${o.n} | ${outcomeCells(o).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}
