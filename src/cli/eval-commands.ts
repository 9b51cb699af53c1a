import type { Command } from 'commander';

import { evalCalibrate } from '../eval/calibrate/calibrate-command.js';
import { evalDetect } from '../eval/detect-command.js';
import { evalFollowUps } from '../eval/follow-ups/follow-ups-command.js';
import { evalGenerate } from '../eval/generate/generate-command.js';
import { evalGrounding } from '../eval/grounding/grounding-command.js';
import { evalLoo } from '../eval/loo-command.js';
import { createLlm } from '../llm/llm-client.js';
import type { Cli } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';

interface JsonOpts {
  json?: boolean;
}

/** `candor eval loo|calibrate|detect|grounding|follow-ups|generate`: offline evaluation. */
export function registerEval(program: Command, cli: Cli): void {
  const group = program.command('eval').description('offline evaluation: leave-one-out, calibration, detectors, grounding, follow-ups');

  group
    .command('loo')
    .description('leave-one-out: each question asked with the full KB and with its own fact left out (abstention per category)')
    .requiredOption('--kb <name>', 'knowledge base')
    .requiredOption('--questions <file>', 'questions (.jsonl, one {"question", ...} per line: see docs/evaluation.md)')
    .option('--markdown <file>', 'also write the report as Markdown')
    .option(
      '--behind <file>',
      'published model answers given without their fact (PolicyBench responses_with_labels): abstained by the model alone, behind the gate, and behind the gate and the grounding check',
    )
    .addOption(jsonOption())
    .action(async (opts: JsonOpts & { kb: string; questions: string; markdown?: string; behind?: string }) => {
      const args = { kb: opts.kb, questions: opts.questions, markdown: opts.markdown, behind: opts.behind, json: opts.json === true };
      cli.done(await cli.withApp('eval loo', (app) => evalLoo(app, args, cli.print, cli.progress)));
    });

  group
    .command('calibrate')
    .description("sweep the answerability threshold over a KB's questions or its reviewers' labels; SVG + JSON trade-off")
    .requiredOption('--kb <name>', 'knowledge base')
    .option('--questions <file>', 'questions in the eval loo format')
    .option('--from-labels', "reviewers' labels on the abstention task instead of a questions file")
    .option('--target-abstention <share>', 'the abstention on unanswerable questions to aim for (default 0.75)')
    .option('--out <prefix>', 'write PREFIX.svg and PREFIX.json')
    .option('--apply', "store the recommended threshold as the KB's setting")
    .addOption(jsonOption())
    .action(
      async (
        opts: JsonOpts & { kb: string; questions?: string; fromLabels?: boolean; targetAbstention?: string; out?: string; apply?: boolean },
      ) => {
        const args = {
          kb: opts.kb,
          questions: opts.questions,
          json: opts.json === true,
          out: opts.out,
          apply: opts.apply === true,
          fromLabels: opts.fromLabels === true,
          targetAbstention: opts.targetAbstention,
        };
        cli.done(await cli.withApp('eval calibrate', (app) => evalCalibrate(app, args, cli.print, cli.progress)));
      },
    );

  group
    .command('detect')
    .description('the rule abstention detector over replies {"id","question","response","label"?} (vs their labels)')
    .requiredOption('--responses <file>', 'replies (.jsonl)')
    .addOption(jsonOption())
    .action((opts: JsonOpts & { responses: string }) => cli.done(evalDetect(opts.responses, opts.json === true, cli.print)));

  group
    .command('grounding')
    .description('the checks after generation over model answers with their context: flagged, passed, AUC; needs no database')
    .requiredOption('--responses <file>', 'answers {"id","question","response","context":[facts],"cited":[0-based]?,"supported"?}')
    .option('--markdown <file>', 'also write the report as Markdown')
    .addOption(jsonOption())
    .action(async (opts: JsonOpts & { responses: string; markdown?: string }) => {
      // No database: only the model, for the entailment check when CANDOR_LLM_ENTAILMENT is on.
      const llmSettings = cli.settings().llm;
      const args = { responses: opts.responses, json: opts.json === true, markdown: opts.markdown };
      cli.done(await evalGrounding(llmSettings ? createLlm(llmSettings) : null, args, cli.print, cli.progress));
    });

  group
    .command('follow-ups')
    .description('thread follow-ups made standalone (as typed, rule, model), held to hand-written ones')
    .option('--questions <file>', 'pairs {"previous","followUp","standalone","kind"} (default: examples/questions/follow-ups.jsonl)')
    .addOption(kbOption())
    .addOption(jsonOption())
    .action(async (opts: JsonOpts & { questions?: string; kb?: string }) => {
      const args = { kb: opts.kb ?? cli.settings().kb.defaultName, questions: opts.questions, json: opts.json === true };
      cli.done(await cli.withApp('eval follow-ups', (app) => evalFollowUps(app, args, cli.print, cli.progress)));
    });

  group
    .command('generate')
    .description("test questions per fact and don't-know questions (needs a model)")
    .requiredOption('--kb <name>', 'knowledge base')
    .option('--per-fact <n>', 'questions per fact (default 1, at most 10)')
    .option('--categories <list>', 'don’t-know categories: a comma list, all or none (default all)')
    .option('--per-category <n>', 'don’t-know questions per category (default 5, at most 50)')
    .option('--out <file>', 'write the questions (.jsonl); FILE.cache.jsonl lets a failed run resume')
    .addOption(jsonOption())
    .action(async (opts: JsonOpts & { kb: string; perFact?: string; categories?: string; perCategory?: string; out?: string }) => {
      const args = {
        kb: opts.kb,
        json: opts.json === true,
        out: opts.out,
        categories: opts.categories,
        perFact: opts.perFact,
        perCategory: opts.perCategory,
      };
      cli.done(await cli.withApp('eval generate', (app) => evalGenerate(app, args, cli.print, cli.progress)));
    });
}
