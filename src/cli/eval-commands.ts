import type { Command } from 'commander';

import { evalCalibrate, type CalibrateOptions } from '../eval/calibrate/calibrate-command.js';
import { evalDetect, type DetectOptions } from '../eval/detect-command.js';
import { evalFollowUps, type FollowUpsOptions } from '../eval/follow-ups/follow-ups-command.js';
import { evalGenerate, type EvalGenerateOptions } from '../eval/generate/generate-command.js';
import { evalGrounding, type GroundingOptions } from '../eval/grounding/grounding-command.js';
import { evalLoo, type LooOptions } from '../eval/loo-command.js';
import { createLlm } from '../llm/llm-client.js';
import type { Cli } from './cli-context.js';
import { jsonOption, kbOption, typedPath, wholeNumber } from './cli-options.js';

/** `candor eval loo|calibrate|detect|grounding|follow-ups|generate`: offline evaluation. */
export function registerEval(program: Command, cli: Cli): void {
  const group = program.command('eval').description('offline evaluation: leave-one-out, calibration, detectors, grounding, follow-ups');
  registerLoo(group, cli);
  registerCalibrate(group, cli);
  registerDetect(group, cli);
  registerGrounding(group, cli);
  registerFollowUps(group, cli);
  registerGenerate(group, cli);
}

function registerLoo(group: Command, cli: Cli): void {
  group
    .command('loo')
    .description('leave-one-out: each question asked with the full KB and with its own fact left out (abstention per category)')
    .requiredOption('--kb <name>', 'knowledge base')
    .requiredOption('--questions <file>', 'questions (.jsonl, one {"question", ...} per line: see docs/evaluation.md)', typedPath(cli))
    .option('--markdown <file>', 'also write the report as Markdown', typedPath(cli))
    .option(
      '--behind <file>',
      'published model answers given without their fact (PolicyBench responses_with_labels): abstained by the model alone, behind the gate, and behind the gate and the grounding check',
      typedPath(cli),
    )
    .addOption(jsonOption())
    .action(async (opts: LooOptions) => cli.done(await cli.withApp('eval loo', (app) => evalLoo(app, opts, cli.print, cli.progress))));
}

function registerCalibrate(group: Command, cli: Cli): void {
  group
    .command('calibrate')
    .description(
      "sweep the answerability threshold (or, with --grounding, the grounding check's) over a KB's questions or its reviewers' labels; SVG + JSON trade-off",
    )
    .requiredOption('--kb <name>', 'knowledge base')
    .option('--questions <file>', 'questions in the eval loo format', typedPath(cli))
    .option('--from-labels', "reviewers' labels (abstention task; factuality with --grounding) instead of a questions file or a model")
    .option('--target-abstention <share>', 'the abstention on unanswerable questions to aim for (default 0.75)')
    .option(
      '--grounding',
      "the grounding check's threshold: the model's answers with and without their fact (or, without a model, reviewers' labels)",
    )
    .option('--max-questions <n>', 'with --grounding: facts to generate questions for, at most (default 200)', wholeNumber(1, 100_000))
    .option('--out <prefix>', 'write PREFIX.svg and PREFIX.json', typedPath(cli))
    .option('--apply', "store the recommended threshold as the KB's setting")
    .addOption(jsonOption())
    .action(async (opts: CalibrateOptions) =>
      cli.done(await cli.withApp('eval calibrate', (app) => evalCalibrate(app, opts, cli.print, cli.progress))),
    );
}

function registerDetect(group: Command, cli: Cli): void {
  group
    .command('detect')
    .description('the rule abstention detector over replies {"id","question","response","label"?} (vs their labels)')
    .requiredOption('--responses <file>', 'replies (.jsonl)', typedPath(cli))
    .addOption(jsonOption())
    .action((opts: DetectOptions) => cli.done(evalDetect(opts, cli.print)));
}

function registerGrounding(group: Command, cli: Cli): void {
  group
    .command('grounding')
    .description('the checks after generation over model answers with their context: flagged, passed, AUC; needs no database')
    .requiredOption(
      '--responses <file>',
      'answers {"id","question","response","context":[facts],"cited":[0-based]?,"supported"?}',
      typedPath(cli),
    )
    .option('--markdown <file>', 'also write the report as Markdown', typedPath(cli))
    .addOption(jsonOption())
    .action(async (opts: GroundingOptions) => {
      // No database: only the model, for the entailment check when CANDOR_LLM_ENTAILMENT is on.
      const llmSettings = cli.settings().llm;
      cli.done(await evalGrounding(llmSettings ? createLlm(llmSettings) : null, opts, cli.print, cli.progress));
    });
}

function registerFollowUps(group: Command, cli: Cli): void {
  group
    .command('follow-ups')
    .description('thread follow-ups made standalone (as typed, rule, model), held to hand-written ones')
    .option(
      '--questions <file>',
      'pairs {"previous","followUp","standalone","kind"} (default: examples/questions/follow-ups.jsonl)',
      typedPath(cli),
    )
    .addOption(kbOption())
    .addOption(jsonOption())
    .action(async (opts: FollowUpsOptions) =>
      cli.done(await cli.withApp('eval follow-ups', (app) => evalFollowUps(app, opts, cli.print, cli.progress))),
    );
}

function registerGenerate(group: Command, cli: Cli): void {
  group
    .command('generate')
    .description("test questions per fact and don't-know questions (needs a model)")
    .requiredOption('--kb <name>', 'knowledge base')
    .option('--per-fact <n>', 'questions per fact (default 1, at most 10)')
    .option('--categories <list>', 'don’t-know categories: a comma list, all or none (default all)')
    .option('--per-category <n>', 'don’t-know questions per category (default 5, at most 50)')
    .option('--out <file>', 'write the questions (.jsonl); FILE.cache.jsonl lets a failed run resume', typedPath(cli))
    .addOption(jsonOption())
    .action(async (opts: EvalGenerateOptions) =>
      cli.done(await cli.withApp('eval generate', (app) => evalGenerate(app, opts, cli.print, cli.progress))),
    );
}
