import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import { isReviewer, parseLabel, tasksFor } from '../core/review/review-tasks.js';
import { CandorError } from '../kernel/errors.js';
import { importLabels } from '../review/import-labels.js';
import { removeLabel, setLabel } from '../review/label-store.js';
import { loadReviewItems, type ReviewItem } from '../review/review-items.js';
import { sampleInteractions } from '../review/sample-interactions.js';
import type { Cli, Out } from './cli-context.js';
import { jsonOption, typedPath, wholeNumber } from './cli-options.js';
import { decimal } from './format.js';

/** The services these commands use. */
type ReviewServices = Pick<Services, 'store' | 'config'>;

export interface ReviewSampleOptions {
  /** Parsed by the command line (a whole number). @default the clock */
  readonly seed?: number | undefined;
  readonly json?: boolean | undefined;
}

export interface ReviewShowOptions {
  /** The sample number, as typed. */
  readonly id: string;
  readonly json?: boolean | undefined;
}

export interface ReviewLabelOptions {
  /** The sample number, as typed. */
  readonly id: string;
  readonly task: string;
  readonly label: string;
  /** The reviewer's name, listed as cli:NAME in CANDOR_REVIEWERS. */
  readonly as: string;
  readonly remove?: boolean | undefined;
  readonly json?: boolean | undefined;
}

export interface ReviewImportOptions {
  readonly file: string;
  readonly annotator: string;
  readonly task: string;
  readonly json?: boolean | undefined;
}

/** `candor review sample`: picks interactions for review now (stratified, near calls first). */
export async function reviewSample(app: ReviewServices, options: ReviewSampleOptions, out: Out): Promise<number> {
  const { review } = app.config;
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const picked = await sampleInteractions(app.store.db, {
    answeredRate: review.answeredRate,
    abstainedRate: review.abstainedRate,
    maxPerRun: review.maxPerRun,
    seed,
  });
  out(options.json ? JSON.stringify({ seed, samples: picked }) : formatSamples(picked));
  return 0;
}

function formatSamples(picked: Awaited<ReturnType<typeof sampleInteractions>>): string {
  if (picked.length === 0) return 'nothing new to sample';
  return picked
    .map(
      (p) =>
        `sample ${p.sampleId}: interaction ${p.id} (${p.stratum}, nearness ${p.nearness === null || p.nearness === undefined ? 'n/a' : decimal(p.nearness)})`,
    )
    .join('\n');
}

/** `candor review show ID`: a sample with the criteria of the tasks that apply to it. */
export async function reviewShow(app: ReviewServices, options: ReviewShowOptions, out: Out): Promise<number> {
  const id = Number(options.id);
  const [item] = Number.isInteger(id) ? await loadReviewItems(app.store.db, [id]) : [];
  if (!item) throw new CandorError('not_found', `There is no review sample ${options.id}. List them with: candor review sample`);
  out(options.json ? JSON.stringify(item) : formatItem(item, app.config.review.tasks));
  return 0;
}

function formatItem(item: ReviewItem, configured: ReviewServices['config']['review']['tasks']): string {
  const tasks = configured.filter((t) => tasksFor(item.decision).some((a) => a.id === t.id));
  return [
    `Sample ${item.sampleId} (${item.channel}, ${item.decision}${item.reason ? `: ${item.reason}` : ''})`,
    `Question: ${item.question}`,
    `Reply: ${item.reply}`,
    ...item.evidence.map((e, i) => `  [${i + 1}] ${e.text} (${e.source})`),
    '',
    ...tasks.map((t) => `${t.id} — ${t.title}\n${t.criteria}\nLabels: ${t.outcomes.join(', ')}\n`),
    `Label with: candor review label ${item.sampleId} TASK LABEL --as YOUR_NAME`,
  ].join('\n');
}

/** `candor review label ID TASK LABEL --as NAME [--remove]`: a terminal reviewer's label, set or taken back. */
export async function reviewLabel(app: ReviewServices, options: ReviewLabelOptions, out: Out): Promise<number> {
  const { review } = app.config;
  const { id: idText, task, label: value, as: name } = options;
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
  const outcome = options.remove ? await removeLabel(app.store.db, change) : await setLabel(app.store.db, change);
  out(
    options.json
      ? JSON.stringify({ outcome, ...change })
      : `${outcome}: sample ${item.sampleId} ${label.task} = ${label.value} (by cli:${name})`,
  );
  return 0;
}

/** `candor review import FILE --annotator NAME --task T`: an outside annotator's labels. */
export async function reviewImport(app: Pick<Services, 'store'>, options: ReviewImportOptions, out: Out): Promise<number> {
  const { file, annotator, task } = options;
  if (!file || !annotator || !task)
    throw new CandorError('option_invalid', 'Usage: candor review import --annotator NAME --task abstention|factuality FILE');
  const summary = await importLabels(app.store.db, { annotator, task: task as 'abstention', file });
  out(
    options.json
      ? JSON.stringify(summary)
      : `imported ${summary.rows} replies from ${file} (${summary.items.added} new, ${summary.items.existing} already imported): ` +
          `${summary.labels.recorded} ${summary.task} labels by ${summary.annotator} recorded, ${summary.labels.unchanged} unchanged` +
          `${summary.notApplicable ? `, ${summary.notApplicable} not applicable` : ''}${summary.unlabelled ? `, ${summary.unlabelled} unlabelled` : ''}.\n` +
          'Compare the judges with these labels: candor report agreement --run',
  );
  return 0;
}

/** `candor review sample|show|label|import`. */
export function registerReview(program: Command, cli: Cli): void {
  const review = program.command('review').description('sample interactions for review and label them from a terminal');
  review
    .command('sample')
    .description('pick interactions for review now (stratified, near calls first)')
    .option('--seed <n>', 'the sampling seed (default: the clock)', wholeNumber(0, 2 ** 31 - 1))
    .addOption(jsonOption())
    .action(async (opts: ReviewSampleOptions) => cli.done(await cli.withApp('review sample', (app) => reviewSample(app, opts, cli.print))));
  review
    .command('show')
    .description('a sample with the labelling criteria')
    .argument('<id>', 'the sample number (from review sample)')
    .addOption(jsonOption())
    .action(async (id: string, opts: { json?: boolean }) =>
      cli.done(await cli.withApp('review show', (app) => reviewShow(app, { id, ...opts }, cli.print))),
    );
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
      cli.done(await cli.withApp('review label', (app) => reviewLabel(app, { id, task, label, ...opts }, cli.print))),
    );
  review
    .command('import')
    .description("an outside annotator's labels (replies with labels, .jsonl)")
    .argument('<file>', 'the labelled replies', typedPath(cli))
    .requiredOption('--annotator <name>', 'who labelled them')
    .requiredOption('--task <task>', 'abstention or factuality')
    .addOption(jsonOption())
    .action(async (file: string, opts: { annotator: string; task: string; json?: boolean }) =>
      cli.done(await cli.withApp('review import', (app) => reviewImport(app, { file, ...opts }, cli.print))),
    );
}
