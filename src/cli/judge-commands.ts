import { readFileSync } from 'node:fs';
import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import { CandorError, fileReadError } from '../kernel/errors.js';
import { addJudgeSpec, listJudgeSpecs } from '../review/judge/judge-specs.js';
import type { Cli, Out } from './cli-context.js';
import { jsonOption } from './cli-options.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'config' | 'llm'>;

export interface JudgeAddOptions {
  readonly name: string;
  readonly task: string;
  /** The criteria, or @FILE to read them from a file. */
  readonly criteria: string;
  /** Comma-separated labels. @default the task's outcomes */
  readonly outcomes?: string | undefined;
  /** @default CANDOR_JUDGE_MODEL, else CANDOR_CHAT_MODEL */
  readonly model?: string | undefined;
  readonly json?: boolean | undefined;
}

/** `candor judge list`: every judge spec, every version. */
export async function judgeList(app: Pick<Services, 'store'>, options: { json?: boolean | undefined }, out: Out): Promise<number> {
  const specs = await listJudgeSpecs(app.store.db);
  out(
    options.json
      ? JSON.stringify({ judges: specs })
      : specs
          .map((s) => `${s.name}@${s.version}  ${s.task}  ${s.model}  prompt ${s.promptId}@${s.promptVersion}  (${s.outcomes.join('/')})`)
          .join('\n') || 'no judges yet: candor judge add --name NAME --task TASK --criteria TEXT|@FILE',
  );
  return 0;
}

/** `candor judge add`: a judge spec (adding a name again makes its next version). */
export async function judgeAdd(app: CommandServices, options: JudgeAddOptions, out: Out): Promise<number> {
  const { name, task, criteria, outcomes, model } = options;
  if (!name || !task || !criteria)
    throw new CandorError(
      'option_invalid',
      'Usage: candor judge add --name NAME --task TASK --criteria TEXT|@FILE [--outcomes a,b] [--model M]',
    );
  const judgeModel = model ?? app.llm?.judgeModel;
  if (!judgeModel)
    throw new CandorError(
      'llm_not_configured',
      'judge add needs a model: give --model MODEL, or configure a model (OPENAI_API_KEY, OPENAI_BASE_URL or AZURE_OPENAI_*; CANDOR_JUDGE_MODEL names the judge model).',
    );
  const defaults = app.config.review.tasks.find((t) => t.id === task);
  const spec = await addJudgeSpec(app.store.db, {
    name,
    task: task as 'abstention',
    criteria: criteria.startsWith('@') ? readCriteria(criteria.slice(1)) : criteria,
    outcomes: outcomes ? outcomes.split(',').map((o) => o.trim()) : [...(defaults?.outcomes ?? [])],
    model: judgeModel,
  });
  out(options.json ? JSON.stringify(spec) : `added judge ${spec.name}@${spec.version} (${spec.task}, ${spec.model})`);
  return 0;
}

/** `candor judge add|list`. */
export function registerJudge(program: Command, cli: Cli): void {
  const judge = program.command('judge').description('judge specs: the criteria, outcomes and model a judge labels with');
  judge
    .command('add')
    .description('a judge spec (adding a name again makes its next version)')
    .requiredOption('--name <name>', "the judge's name")
    .requiredOption('--task <task>', 'the task it labels (abstention, factuality, …)')
    .requiredOption('--criteria <text>', 'the criteria, or @FILE to read them from a file', (value: string) =>
      value.startsWith('@') ? `@${cli.path(value.slice(1))}` : value,
    )
    .option('--outcomes <list>', "its labels, comma-separated (default: the task's)")
    .option('--model <model>', 'the model it runs on (default: CANDOR_JUDGE_MODEL, else CANDOR_CHAT_MODEL)')
    .addOption(jsonOption())
    .action(async (opts: JudgeAddOptions) => cli.done(await cli.withApp('judge add', (app) => judgeAdd(app, opts, cli.print))));
  judge
    .command('list')
    .description('judge specs, every version')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => cli.done(await cli.withApp('judge list', (app) => judgeList(app, opts, cli.print))));
}

function readCriteria(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw fileReadError(path, error);
  }
}
