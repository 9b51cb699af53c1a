import type { Services } from '../../ask/services.js';
import { RULE_JUDGES } from '../../core/judge/rule-judges.js';
import { buildAgreementReport, type AgreementReport } from '../../core/review/agreement-report.js';
import { judgeWithLlm } from './llm-judge.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'llm' | 'store' | 'log'>;

/** The agreement job wired to the app: its store, the LLM judge when a model is configured, the pure report. */
export function agreementDeps(app: CommandServices) {
  const llm = app.llm;
  return {
    store: app.store,
    ruleJudges: RULE_JUDGES,
    judge: llm
      ? (spec: Parameters<typeof judgeWithLlm>[1], item: Parameters<typeof judgeWithLlm>[2]) => judgeWithLlm(llm, spec, item)
      : null,
    buildReport: (labels: Parameters<typeof buildAgreementReport>[0]) => buildAgreementReport(labels, { seed: 1 }),
    log: app.log,
  };
}

/** A short plain-text summary (also what is posted to the review channel). */
export function formatReport(report: AgreementReport & { runKey?: string }): string {
  const f = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(2));
  const lines = [`Agreement report${report.runKey ? ` (${report.runKey})` : ''}`];
  if (report.tasks.length === 0) lines.push('No labels yet.');
  for (const t of report.tasks) {
    lines.push(
      `${t.task}: ${t.items} items labelled by ${t.humans.length} reviewers; humans agree ${f(t.humanHuman.percentAgreement)} (alpha ${f(t.humanHuman.krippendorffAlpha)})`,
    );
    for (const j of t.judges) {
      lines.push(
        `  ${j.judge}: kappa ${f(j.cohensKappa)} [${f(j.kappaCI.low)}, ${f(j.kappaCI.high)}] on ${j.items} items, ${j.disagreements.length} disagreements${j.weightedKappa ? `, quadratic ${f(j.weightedKappa.quadratic)}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
