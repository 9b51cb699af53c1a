import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import type { AgreementReport } from '../core/review/agreement-report.js';
import { CandorError } from '../kernel/errors.js';
import { agreementDeps, formatReport } from '../review/judge/agreement-deps.js';
import { findReport, runAgreementReport } from '../review/judge/agreement-job.js';
import type { Cli, Out } from './cli-context.js';
import { jsonOption, kbOption, wholeNumber } from './cli-options.js';
import { reportGaps, type ReportGapsOptions } from './report-gaps.js';

export interface ReportAgreementOptions {
  /** Only this task's figures. @default every task */
  readonly task?: string | undefined;
  /** Make a report now instead of showing the latest. */
  readonly run?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/** `candor report agreement [--task T] [--json] [--run]`. */
export async function reportAgreement(
  app: Pick<Services, 'store' | 'llm' | 'log'>,
  options: ReportAgreementOptions,
  out: Out,
): Promise<number> {
  let stored: (AgreementReport & { runKey?: string; createdAt?: string }) | null;
  if (options.run) {
    const run = await runAgreementReport(agreementDeps(app), `manual:${new Date().toISOString()}`);
    if (run.status === 'busy')
      throw new CandorError('busy', 'Another agreement report is running now; try again when it has finished.', { retryable: true });
    stored = run.report;
  } else {
    stored = await findReport(app.store);
  }
  if (!stored) {
    // Nothing to report is an answer, not a failure: scripts get a JSON object and exit 0.
    const message = 'No agreement report yet. Run one now with: candor report agreement --run';
    out(options.json ? JSON.stringify({ report: null, message }) : message);
    return 0;
  }
  const tasks = options.task ? stored.tasks.filter((t) => t.task === options.task) : stored.tasks;
  const report = { ...stored, tasks };
  out(options.json ? JSON.stringify(report) : formatReport(report));
  return 0;
}

/** `candor report agreement|gaps`. */
export function registerReport(program: Command, cli: Cli): void {
  const report = program.command('report').description('reports: judge–human agreement, knowledge-base gaps');
  report
    .command('agreement')
    .description('the latest judge–human agreement report (kappa, alpha, disagreements)')
    .option('--task <task>', 'only this task')
    .option('--run', 'make one now')
    .addOption(jsonOption('the report as one JSON object ({"report":null,…} when there is none yet)'))
    .action(async (opts: ReportAgreementOptions) =>
      cli.done(await cli.withApp('report agreement', (app) => reportAgreement(app, opts, cli.print))),
    );
  report
    .command('gaps')
    .description('refused questions grouped into gaps, with their state (open, asked, answered, out of scope)')
    .addOption(kbOption())
    .option('--days <n>', 'the window: refusals of the last N days (default 30)', wholeNumber(1, 3650))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nEach gap has an id and a state: open, asked (posted to the KB’s experts), answered (by an expert fact) or\n' +
        'out_of_scope, with its askers (HTTP and CLI asks as API) and first/last asked; an answered gap open again\n' +
        'says why (its fact due for re-confirmation, or retired). --json groups carry id, state, factId, answer,\n' +
        'askers, apiAskers, reopened, firstAsked, lastAsked.',
    )
    .action(async (opts: ReportGapsOptions) => cli.done(await cli.withApp('report gaps', (app) => reportGaps(app, opts, cli.print))));
}
