import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import type { AgreementReport } from '../core/review/agreement-report.js';
import { isReviewer, parseLabel, tasksFor } from '../core/review/review-tasks.js';
import { CandorError } from '../kernel/errors.js';
import { importLabels } from '../review/import-labels.js';
import { agreementDeps, formatReport } from '../review/judge/agreement-deps.js';
import { findReport, runAgreementReport } from '../review/judge/agreement-job.js';
import { removeLabel, setLabel } from '../review/label-store.js';
import { loadReviewItems } from '../review/review-items.js';
import { sampleInteractions } from '../review/sample-interactions.js';
import type { Cli } from './cli-context.js';
import { jsonOption, wholeNumber } from './cli-options.js';
import { decimal } from './format.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'config' | 'llm' | 'log'>;

export interface ReviewArgs {
  readonly positionals: string[];
  readonly values: {
    json?: boolean;
    annotator?: string;
    as?: string;
    task?: string;
    name?: string;
    criteria?: string;
    outcomes?: string;
    model?: string;
    /** Parsed by the command line (a whole number). @default the clock */
    seed?: number | undefined;
    run?: boolean;
    remove?: boolean;
  };
}

export type Out = (text: string) => void;

/** `candor review sample|show|label`: sampling and labelling from a terminal. */
export async function reviewCommand(app: CommandServices, args: ReviewArgs, out: Out): Promise<number> {
  const [, sub, ...rest] = args.positionals;
  const { review } = app.config;
  switch (sub) {
    case 'sample': {
      const seed = args.values.seed ?? Date.now() % 2 ** 31;
      const picked = await sampleInteractions(app.store.db, {
        answeredRate: review.answeredRate,
        abstainedRate: review.abstainedRate,
        maxPerRun: review.maxPerRun,
        seed,
      });
      if (args.values.json) out(JSON.stringify({ seed, samples: picked }));
      else
        out(
          picked.length === 0
            ? 'nothing new to sample'
            : picked
                .map(
                  (p) =>
                    `sample ${p.sampleId}: interaction ${p.id} (${p.stratum}, nearness ${p.nearness === null || p.nearness === undefined ? 'n/a' : decimal(p.nearness)})`,
                )
                .join('\n'),
        );
      return 0;
    }
    case 'show': {
      const id = Number(rest[0]);
      const [item] = Number.isInteger(id) ? await loadReviewItems(app.store.db, [id]) : [];
      if (!item)
        throw new CandorError('not_found', `There is no review sample ${rest[0] ?? '(none given)'}. List them with: candor review sample`);
      if (args.values.json) return (out(JSON.stringify(item)), 0);
      const tasks = review.tasks.filter((t) => tasksFor(item.decision).some((a) => a.id === t.id));
      out(
        [
          `Sample ${item.sampleId} (${item.channel}, ${item.decision}${item.reason ? `: ${item.reason}` : ''})`,
          `Question: ${item.question}`,
          `Reply: ${item.reply}`,
          ...item.evidence.map((e, i) => `  [${i + 1}] ${e.text} (${e.source})`),
          '',
          ...tasks.map((t) => `${t.id} — ${t.title}\n${t.criteria}\nLabels: ${t.outcomes.join(', ')}\n`),
          `Label with: candor review label ${item.sampleId} TASK LABEL --as YOUR_NAME`,
        ].join('\n'),
      );
      return 0;
    }
    case 'label': {
      const [idText, task, value] = rest;
      const name = args.values.as;
      if (!idText || !task || !value || !name)
        throw new CandorError('option_invalid', 'Usage: candor review label SAMPLE_ID TASK LABEL --as NAME [--remove]');
      if (!isReviewer(review.reviewers, 'cli', name)) {
        throw new CandorError(
          'not_permitted',
          review.reviewers.length === 0
            ? `No reviewers are configured, so no label counts; ask whoever runs Candor to set CANDOR_REVIEWERS=cli:${name}.`
            : `"${name}" is not a configured reviewer (CANDOR_REVIEWERS); ask whoever runs Candor to add cli:${name}.`,
        );
      }
      const label = parseLabel(value, task, review.tasks);
      if (!label.ok) throw new CandorError('option_invalid', label.message);
      const [item] = await loadReviewItems(app.store.db, [Number(idText)]);
      if (!item) throw new CandorError('not_found', `There is no review sample ${idText}.`);
      if (!tasksFor(item.decision).some((t) => t.id === label.task))
        throw new CandorError('conflict', `${label.task} applies to answered items only; sample ${idText} was a refusal.`);
      const change = { sampleId: item.sampleId, task: label.task, annotator: `cli:${name}`, value: label.value, via: 'terminal' as const };
      const outcome = args.values.remove ? await removeLabel(app.store.db, change) : await setLabel(app.store.db, change);
      out(
        args.values.json
          ? JSON.stringify({ outcome, ...change })
          : `${outcome}: sample ${item.sampleId} ${label.task} = ${label.value} (by cli:${name})`,
      );
      return 0;
    }
    case 'import': {
      const [file] = rest;
      const { annotator, task } = args.values;
      if (!file || !annotator || !task)
        throw new CandorError('option_invalid', 'Usage: candor review import --annotator NAME --task abstention|factuality FILE');
      const summary = await importLabels(app.store.db, { annotator, task: task as 'abstention', file });
      out(
        args.values.json
          ? JSON.stringify(summary)
          : `imported ${summary.rows} replies from ${file} (${summary.items.added} new, ${summary.items.existing} already imported): ` +
              `${summary.labels.recorded} ${summary.task} labels by ${summary.annotator} recorded, ${summary.labels.unchanged} unchanged` +
              `${summary.notApplicable ? `, ${summary.notApplicable} not applicable` : ''}${summary.unlabelled ? `, ${summary.unlabelled} unlabelled` : ''}.\n` +
              'Compare the judges with these labels: candor report agreement --run',
      );
      return 0;
    }
    default:
      throw new CandorError(
        'option_invalid',
        'review supports: sample, show ID, label ID TASK LABEL --as NAME, import --annotator NAME --task T FILE',
      );
  }
}

/** `candor report agreement [--task T] [--json] [--run]`. */
export async function reportCommand(app: CommandServices, args: ReviewArgs, out: Out): Promise<number> {
  if (args.positionals[1] !== 'agreement') throw new CandorError('option_invalid', 'report supports: agreement, gaps');
  let stored: (AgreementReport & { runKey?: string; createdAt?: string }) | null;
  if (args.values.run) {
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
    out(args.values.json ? JSON.stringify({ report: null, message }) : message);
    return 0;
  }
  const tasks = args.values.task ? stored.tasks.filter((t) => t.task === args.values.task) : stored.tasks;
  const report = { ...stored, tasks };
  out(args.values.json ? JSON.stringify(report) : formatReport(report));
  return 0;
}

/** `candor review sample|show|label|import`. */
export function registerReview(program: Command, cli: Cli): void {
  const review = program.command('review').description('sample interactions for review and label them from a terminal');
  const run = (purpose: string, positionals: string[], values: ReviewArgs['values']) =>
    cli.withApp(purpose, (app) => reviewCommand(app, { positionals: ['review', ...positionals], values }, cli.print));
  review
    .command('sample')
    .description('pick interactions for review now (stratified, near calls first)')
    .option('--seed <n>', 'the sampling seed (default: the clock)', wholeNumber(0, 2 ** 31 - 1))
    .addOption(jsonOption())
    .action(async (opts: { seed?: number; json?: boolean }) => cli.done(await run('review sample', ['sample'], opts)));
  review
    .command('show')
    .description('a sample with the labelling criteria')
    .argument('<id>', 'the sample number (from review sample)')
    .addOption(jsonOption())
    .action(async (id: string, opts: { json?: boolean }) => cli.done(await run('review show', ['show', id], opts)));
  review
    .command('label')
    .description('label a sample from a terminal (NAME listed as cli:NAME in CANDOR_REVIEWERS)')
    .argument('<id>', 'the sample number')
    .argument('<task>', 'the task (abstention, factuality, …)')
    .argument('<label>', "one of the task's labels")
    .requiredOption('--as <name>', 'your reviewer name')
    .option('--remove', 'take the label back')
    .addOption(jsonOption())
    .action(async (id: string, task: string, label: string, opts: { as: string; remove?: boolean; json?: boolean }) =>
      cli.done(await run('review label', ['label', id, task, label], opts)),
    );
  review
    .command('import')
    .description("an outside annotator's labels (replies with labels, .jsonl)")
    .argument('<file>', 'the labelled replies')
    .requiredOption('--annotator <name>', 'who labelled them')
    .requiredOption('--task <task>', 'abstention or factuality')
    .addOption(jsonOption())
    .action(async (file: string, opts: { annotator: string; task: string; json?: boolean }) =>
      cli.done(await run('review import', ['import', file], opts)),
    );
}
