#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import type { Decision } from './ask/decision.js';
import { channelMap, formatChannelMap } from './channels/chat/channel-map.js';
import { formatReplyText } from './channels/chat/reply-text.js';
import { helpOrVersion } from './cli-help.js';
import { expertGapsCommand } from './cli/gaps-commands.js';
import { kbFactsCommand } from './cli/kb-commands.js';
import { gapsCommand } from './cli/report-gaps.js';
import { judgeCommand, reportCommand, reviewCommand } from './cli/review-commands.js';
import { loadConfig, type Config } from './config.js';
import { CandorError } from './errors.js';
import { evalCalibrate } from './eval/calibrate/calibrate-command.js';
import { evalDetect } from './eval/detect-command.js';
import { evalFollowUps } from './eval/follow-ups/follow-ups-command.js';
import { evalGenerate } from './eval/generate/generate-command.js';
import { evalGrounding } from './eval/grounding/grounding-command.js';
import { evalLoo } from './eval/loo-command.js';
import { embedMissingFacts, type EmbedSummary } from './kb/embed-facts.js';
import { ingestPaths, kbStatus, type IngestOptions, type IngestSummary } from './kb/ingest/ingest.js';
import { extractFacts } from './llm/extract-facts.js';
import { createLlm } from './llm/llm-client.js';
import { buildCandor, type Candor } from './main.js';
import { serve } from './serve.js';

const USAGE = `Usage: candor <command> [options]

  start                              ingest the example KB if the KB is empty, then serve
  serve                              HTTP API (/api/ask, /healthz, /metrics), the console at /, configured channels
  migrate                            apply pending database migrations, then exit (a deployment's init step)
  channels [--json]                  which knowledge bases answer in which Slack channel / Teams conversation (CANDOR_CHANNELS)
  ingest PATH... [--kb NAME] [--json]  documents (.txt .md .html .pdf .docx) or facts (.jsonl) → facts
  ask "QUESTION" [--kb NAME] [--json]  answer or refuse
  eval loo --kb NAME --questions FILE [--markdown FILE] [--behind FILE] [--json]   leave-one-out evaluation (abstention per question category)
  eval calibrate --kb NAME (--questions FILE | --from-labels) [--target-abstention X] [--out PREFIX] [--apply] [--json]
                                     sweep the answerability threshold; SVG + JSON trade-off; --apply stores it for that KB
  eval detect --responses FILE [--json]          rule abstention detector over replies (vs their labels)
  eval grounding --responses FILE [--markdown FILE] [--json]   the post-generation checks over model answers with their context
  eval follow-ups [--questions FILE] [--kb NAME] [--json]   thread follow-ups made standalone (as typed, rule, model), held to hand-written ones
  eval generate --kb NAME [--per-fact N] [--categories LIST|all|none] [--per-category N] [--out FILE] [--json]
                                     questions per fact and don't-know questions (needs a model)
  review sample [--seed N] [--json]  pick interactions for review (stratified, near calls first)
  review show ID                     a sample with the labelling criteria
  review label ID TASK LABEL --as NAME [--remove]   label from a terminal
  review import --annotator NAME --task abstention|factuality FILE [--json]   an outside annotator's labels
  judge add --name N --task T --criteria TEXT|@FILE [--outcomes a,b] [--model M]
  judge list [--json]                judge specs, every version
  report agreement [--task T] [--run] [--json]   the latest agreement report (--run: make one now)
  report gaps [--kb NAME] [--days N] [--json]    refused questions grouped into gaps, with their state (open, asked, answered, out of scope)
  gaps answer GAP_ID --text TEXT --as NAME [--kb NAME] [--json]   answer a gap as an expert (cli:NAME in CANDOR_EXPERTS)
  gaps dismiss GAP_ID --as NAME [--json]         mark a gap out of scope ("not for the KB")
  kb facts --source expert [--kb NAME] [--all] [--json]   expert answers stored as facts (--all: retired ones too)
  kb retire FACT_ID [--as NAME]  |  kb confirm FACT_ID --as NAME [--text TEXT]   retire, re-confirm or edit a fact

candor <command> --help for a command's options; candor --version.
Settings come from the environment (see README). --json prints one JSON object on stdout.`;

/** Beside the code (src/ or dist/src/), so `candor start` finds it from any working directory. */
const EXAMPLE_KB = [fileURLToPath(new URL('../examples/kb', import.meta.url))];

/** Exit codes: 0 done, 1 failed, 2 usage. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const answered = helpOrVersion(command, rest, USAGE, usage);
  if (answered !== undefined) return answered;
  let args;
  try {
    args = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        kb: { type: 'string' },
        json: { type: 'boolean', default: false },
        questions: { type: 'string' },
        responses: { type: 'string' },
        'per-fact': { type: 'string' },
        'per-category': { type: 'string' },
        categories: { type: 'string' },
        out: { type: 'string' },
        markdown: { type: 'string' },
        behind: { type: 'string' },
        as: { type: 'string' },
        annotator: { type: 'string' },
        task: { type: 'string' },
        name: { type: 'string' },
        criteria: { type: 'string' },
        outcomes: { type: 'string' },
        model: { type: 'string' },
        seed: { type: 'string' },
        days: { type: 'string' },
        text: { type: 'string' },
        source: { type: 'string' },
        all: { type: 'boolean', default: false },
        run: { type: 'boolean', default: false },
        remove: { type: 'boolean', default: false },
        apply: { type: 'boolean', default: false },
        'from-labels': { type: 'boolean', default: false },
        'target-abstention': { type: 'string' },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const config = loadConfig();
  const kb = args.values.kb ?? config.kb.defaultName;
  // Named in an embedded folder's lock, so another process can say who holds it.
  const purpose = [command, args.positionals[0]].filter((p) => p !== undefined && !/\s/.test(p)).join(' ');
  switch (command) {
    case 'ingest':
      if (args.positionals.length === 0) return usage('ingest needs at least one PATH');
      return withApp(config, purpose, async (app) => {
        const summary = await ingestPaths(app.store.db, args.positionals, {
          kb,
          onProgress: progress,
          limits: app.config.ingest,
          sourceUrls: app.config.kb.sourceUrls,
          ...extraction(app),
        });
        const embeddings = await embedAfterIngest(app, kb);
        printIngest(embeddings.summary ? { ...summary, embeddings: embeddings.summary } : summary, args.values.json);
        // a file that could not be read fails the run (the rest of the batch is stored all the same)
        return summary.errors.length > 0 || (summary.documents === 0 && summary.skipped.length > 0) || embeddings.failed ? 1 : 0;
      });
    case 'ask': {
      const question = args.positionals.join(' ');
      if (question.trim() === '') return usage('ask needs a QUESTION');
      return withApp(config, purpose, async (app) => {
        const decision = await app.ask({ question, kb, channel: 'cli' });
        process.stdout.write(args.values.json ? `${JSON.stringify(contract(decision))}\n` : `${render(decision)}\n`);
        return 0;
      });
    }
    case 'eval': {
      if (args.positionals[0] === 'detect') {
        if (!args.values.responses) return usage('eval detect needs --responses FILE');
        return evalDetect(args.values.responses, args.values.json, print);
      }
      if (args.positionals[0] === 'grounding') {
        if (!args.values.responses) return usage('eval grounding needs --responses FILE');
        // No database: only the model, for the entailment check when CANDOR_LLM_ENTAILMENT is on.
        const { responses, json, markdown } = args.values;
        return evalGrounding(config.llm ? createLlm(config.llm) : null, { responses, json, markdown }, print, progress);
      }
      if (args.positionals[0] === 'follow-ups') {
        const followUps = { kb, questions: args.values.questions, json: args.values.json };
        return withApp(config, purpose, (app) => evalFollowUps(app, followUps, print, progress));
      }
      if (args.positionals[0] === 'generate') {
        const { kb: name, json, out, categories } = args.values;
        return withApp(config, purpose, (app) =>
          evalGenerate(
            app,
            { kb: name, json, out, categories, perFact: args.values['per-fact'], perCategory: args.values['per-category'] },
            print,
            progress,
          ),
        );
      }
      if (args.positionals[0] === 'calibrate') {
        if (!args.values.kb) return usage('eval calibrate needs --kb NAME, and --questions FILE or --from-labels');
        const { questions, json, out, apply } = args.values;
        const calibrate = {
          kb,
          questions,
          json,
          out,
          apply,
          fromLabels: args.values['from-labels'],
          targetAbstention: args.values['target-abstention'],
        };
        return withApp(config, purpose, (app) => evalCalibrate(app, calibrate, print, progress));
      }
      if (args.positionals[0] !== 'loo') return usage('eval supports: loo, calibrate, detect, grounding, generate, follow-ups');
      if (!args.values.questions || !args.values.kb) return usage('eval loo needs --kb NAME and --questions FILE');
      const { markdown, json, behind } = args.values;
      const loo = { kb, questions: args.values.questions, markdown, json, behind };
      return withApp(config, purpose, (app) => evalLoo(app, loo, print, progress));
    }
    case 'review':
      return withApp(config, purpose, (app) =>
        reviewCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print),
      );
    case 'judge':
      return withApp(config, purpose, (app) =>
        judgeCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print),
      );
    case 'report':
      if (args.positionals[0] === 'gaps') return withApp(config, purpose, (app) => gapsCommand(app, args.values, print));
      return withApp(config, purpose, (app) =>
        reportCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print),
      );
    case 'gaps':
      return withApp(config, purpose, (app) =>
        expertGapsCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print),
      );
    case 'kb':
      return withApp(config, purpose, (app) =>
        kbFactsCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print),
      );
    case 'channels':
      return withApp(config, purpose, async (app) => {
        const rows = await channelMap(app.config.channels, app.config.kb.defaultName, (name) => kbStatus(app.store.db, name));
        process.stdout.write(args.values.json ? `${JSON.stringify({ channels: rows })}\n` : `${formatChannelMap(rows)}\n`);
        return rows.some((r) => r.kbs.some((k) => k.version === null) && r.platform !== 'default') ? 1 : 0;
      });
    case 'migrate': // opening the store applies pending migrations (under an advisory lock on PostgreSQL)
      return withApp(config, purpose, async (app) => (progress(`migrations applied (store: ${app.store.kind})`), 0));
    case 'serve':
    case 'start':
      return withApp(
        config,
        purpose,
        async (app) => {
          if (command === 'start') await ensureExampleKb(app, kb);
          await serve(app);
          return 0;
        },
        { keepOpen: true },
      );
    default:
      return usage(`unknown command "${command}"`);
  }
}

async function ensureExampleKb(app: Candor, kb: string): Promise<void> {
  const status = await kbStatus(app.store.db, kb);
  if (status && status.facts > 0) return;
  progress(`knowledge base "${kb}" is empty: ingesting the example documents in ${EXAMPLE_KB.join(', ')}`);
  const summary = await ingestPaths(app.store.db, EXAMPLE_KB, {
    kb,
    onProgress: progress,
    limits: app.config.ingest,
    sourceUrls: app.config.kb.sourceUrls,
    ...extraction(app),
  });
  printIngest(summary, false, process.stderr);
  await embedAfterIngest(app, kb);
}

/** LLM fact extraction when CANDOR_FACT_EXTRACTION=llm (config guarantees a model then). */
function extraction(app: Candor): Pick<IngestOptions, 'extractFacts'> {
  const llm = app.llm;
  if (app.config.kb.factExtraction !== 'llm' || !llm) return {};
  return { extractFacts: (passage) => extractFacts(llm, passage) };
}

/**
 * With an embedding model configured, embeds the facts that have none yet.
 * A failure keeps the facts (retrieval stays lexical for them) and says how to resume.
 */
async function embedAfterIngest(app: Candor, kb: string): Promise<{ summary?: EmbedSummary; failed: boolean }> {
  if (!app.llm?.embeddingModel) return { failed: false };
  try {
    const summary = await embedMissingFacts(app.store.db, app.llm, kb, { onProgress: progress });
    if (summary.embedded > 0) progress(`embedded ${summary.embedded} facts with ${summary.model}`);
    return { summary, failed: false };
  } catch (error) {
    progress(`facts are stored, but embedding them failed (${(error as Error).message}); run the same ingest again to resume`);
    return { failed: true };
  }
}

async function withApp(
  config: Config,
  purpose: string,
  run: (app: Candor) => Promise<number>,
  opts: { keepOpen?: boolean } = {},
): Promise<number> {
  const app = await buildCandor(config, { purpose });
  try {
    return await run(app);
  } finally {
    if (!opts.keepOpen) await app.close();
  }
}

/** The documented `--json` shape, without internal extras that scripts need not see. */
/** The JSON contract: the same object `POST /api/ask` returns. */
function contract(d: Decision): Decision {
  return d;
}

function render(d: Decision): string {
  return formatReplyText(d);
}

function printIngest(s: IngestSummary & { embeddings?: EmbedSummary }, json: boolean, out: NodeJS.WritableStream = process.stdout): void {
  for (const error of s.errors) process.stderr.write(`candor: failed ${error.path}: ${error.reason}\n`);
  if (json) return void out.write(`${JSON.stringify(s)}\n`);
  out.write(
    `knowledge base "${s.kb.name}" is at version ${s.kb.version}: ${s.documents} documents (${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged), ` +
      `${s.facts} facts stored, ${s.retiredFacts} retired, ${s.skipped.length} skipped, ${s.errors.length} failed, ${(s.ms / 1000).toFixed(1)} s\n`,
  );
  for (const [type, c] of Object.entries(s.byType)) {
    out.write(
      `  ${type}: ${c.files} files, ${c.facts} facts stored (${c.tableRows} table rows), ${c.skipped} skipped, ${c.errors} failed\n`,
    );
  }
  for (const skip of s.skipped.slice(0, 20)) process.stderr.write(`  skipped ${skip.path}: ${skip.reason}\n`);
  if (s.skipped.length > 20) process.stderr.write(`  … and ${s.skipped.length - 20} more skipped\n`);
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function progress(message: string): void {
  process.stderr.write(`candor: ${message}\n`);
}

function usage(message: string): number {
  process.stderr.write(`candor: ${message}\n\n${USAGE}\n`);
  return 2;
}

/** Runs the command line and sets the exit code (bin/candor.js calls this in the package). */
export function runCli(argv: string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`candor: ${error instanceof CandorError ? error.message : (error as Error).stack}\n`);
      process.exitCode = 1;
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts')) runCli(process.argv.slice(2));
