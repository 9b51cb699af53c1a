#!/usr/bin/env node
import { parseArgs } from 'node:util';

import type { Decision } from './ask/decision.js';
import { judgeCommand, reportCommand, reviewCommand } from './cli-review.js';
import { loadConfig, type Config } from './config.js';
import { CandorError } from './errors.js';
import { readLooQuestions, runLeaveOneOut } from './eval/leave-one-out.js';
import { embedMissingFacts, type EmbedSummary } from './kb/embed-facts.js';
import { ingestPaths, kbStatus, type IngestOptions, type IngestSummary } from './kb/ingest/ingest.js';
import { extractFacts } from './llm/extract-facts.js';
import { buildApp, type App } from './main.js';
import { serve } from './serve.js';

const USAGE = `Usage: candor <command> [options]

  start                              ingest the example KB if the KB is empty, then serve
  serve                              HTTP API (/api/ask, /healthz) and configured channels
  ingest PATH... [--kb NAME] [--json]  documents (.txt .md .html) or facts (.jsonl) → facts
  ask "QUESTION" [--kb NAME] [--json]  answer or refuse
  eval loo --kb NAME --questions FILE [--json]   leave-one-out evaluation
  review sample [--seed N] [--json]  pick interactions for review (stratified, near calls first)
  review show ID                     a sample with the labelling criteria
  review label ID TASK LABEL --as NAME [--remove]   label from a terminal
  judge add --name N --task T --criteria TEXT|@FILE [--outcomes a,b] [--model M]
  judge list [--json]                judge specs, every version
  report agreement [--task T] [--run] [--json]   the latest agreement report (--run: make one now)

Settings come from the environment (see README). --json prints one JSON object on stdout.`;

const EXAMPLE_KB = ['examples/kb'];

/** Exit codes: 0 done, 1 failed, 2 usage. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  let args;
  try {
    args = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        kb: { type: 'string' },
        json: { type: 'boolean', default: false },
        questions: { type: 'string' },
        as: { type: 'string' },
        task: { type: 'string' },
        name: { type: 'string' },
        criteria: { type: 'string' },
        outcomes: { type: 'string' },
        model: { type: 'string' },
        seed: { type: 'string' },
        run: { type: 'boolean', default: false },
        remove: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const config = loadConfig();
  const kb = args.values.kb ?? config.kb.defaultName;
  switch (command) {
    case 'ingest':
      if (args.positionals.length === 0) return usage('ingest needs at least one PATH');
      return withApp(config, async (app) => {
        const summary = await ingestPaths(app.store.db, args.positionals, { kb, onProgress: progress, ...extraction(app) });
        const embeddings = await embedAfterIngest(app, kb);
        printIngest(embeddings.summary ? { ...summary, embeddings: embeddings.summary } : summary, args.values.json);
        return (summary.documents === 0 && summary.skipped.length > 0) || embeddings.failed ? 1 : 0;
      });
    case 'ask': {
      const question = args.positionals.join(' ');
      if (question.trim() === '') return usage('ask needs a QUESTION');
      return withApp(config, async (app) => {
        const decision = await app.ask({ question, kb, channel: 'cli' });
        process.stdout.write(args.values.json ? `${JSON.stringify(contract(decision))}\n` : `${render(decision)}\n`);
        return 0;
      });
    }
    case 'eval': {
      if (args.positionals[0] !== 'loo') return usage('eval supports: loo');
      const file = args.values.questions;
      if (!file || !args.values.kb) return usage('eval loo needs --kb NAME and --questions FILE');
      const questions = readLooQuestions(file);
      return withApp(config, async (app) => {
        const report = await runLeaveOneOut(app, kb, questions, (done, total) => {
          if (done % 25 === 0 || done === total) progress(`asked ${done}/${total} questions (twice each)`);
        });
        const s = report.summary;
        process.stdout.write(
          args.values.json
            ? `${JSON.stringify(report)}\n`
            : `n=${s.n}  full KB answered=${pct(s.fullAnswered)} (with own fact ${pct(s.fullAnsweredWithFact)})  leave-one-out abstained=${pct(s.looAbstained)}\n` +
                `full-KB refusals by: ${JSON.stringify(s.fullRefusedBy)}\nleave-one-out refusals by: ${JSON.stringify(s.looRefusedBy)}\n`,
        );
        return 0;
      });
    }
    case 'review':
      return withApp(config, (app) => reviewCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print));
    case 'judge':
      return withApp(config, (app) => judgeCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print));
    case 'report':
      return withApp(config, (app) => reportCommand(app, { positionals: [command, ...args.positionals], values: args.values }, print));
    case 'serve':
    case 'start':
      return withApp(
        config,
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

async function ensureExampleKb(app: App, kb: string): Promise<void> {
  const status = await kbStatus(app.store.db, kb);
  if (status && status.facts > 0) return;
  progress(`knowledge base "${kb}" is empty: ingesting the example documents in ${EXAMPLE_KB.join(', ')}`);
  const summary = await ingestPaths(app.store.db, EXAMPLE_KB, { kb, onProgress: progress, ...extraction(app) });
  printIngest(summary, false, process.stderr);
  await embedAfterIngest(app, kb);
}

/** LLM fact extraction when CANDOR_FACT_EXTRACTION=llm (config guarantees a model then). */
function extraction(app: App): Pick<IngestOptions, 'extractFacts'> {
  const llm = app.llm;
  if (app.config.kb.factExtraction !== 'llm' || !llm) return {};
  return { extractFacts: (passage) => extractFacts(llm, passage) };
}

/**
 * With an embedding model configured, embeds the facts that have none yet.
 * A failure keeps the facts (retrieval stays lexical for them) and says how to resume.
 */
async function embedAfterIngest(app: App, kb: string): Promise<{ summary?: EmbedSummary; failed: boolean }> {
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

async function withApp(config: Config, run: (app: App) => Promise<number>, opts: { keepOpen?: boolean } = {}): Promise<number> {
  const app = await buildApp(config);
  try {
    return await run(app);
  } finally {
    if (!opts.keepOpen) await app.close();
  }
}

/** The documented `--json` shape, without internal extras that scripts need not see. */
function contract(d: Decision) {
  return {
    decision: d.decision,
    answer: d.answer ?? d.refusal,
    reasons: d.reasons.map(({ layer, code, detail, score, threshold }) => ({ layer, code, detail, score, threshold })),
    evidence: d.evidence,
    nearbyTopics: d.nearbyTopics,
    kb: d.kb,
    traceId: d.traceId,
    latencyMs: d.latencyMs,
  };
}

function render(d: Decision): string {
  return d.decision === 'answer' ? (d.answer ?? '') : `I don't know. ${d.refusal ?? ''}`;
}

function printIngest(s: IngestSummary & { embeddings?: EmbedSummary }, json: boolean, out: NodeJS.WritableStream = process.stdout): void {
  if (json) return void out.write(`${JSON.stringify(s)}\n`);
  out.write(
    `knowledge base "${s.kb.name}" is at version ${s.kb.version}: ${s.documents} documents (${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged), ` +
      `${s.facts} facts stored, ${s.retiredFacts} retired, ${s.skipped.length} skipped, ${(s.ms / 1000).toFixed(1)} s\n`,
  );
  for (const skip of s.skipped.slice(0, 20)) process.stderr.write(`  skipped ${skip.path}: ${skip.reason}\n`);
  if (s.skipped.length > 20) process.stderr.write(`  … and ${s.skipped.length - 20} more skipped\n`);
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function progress(message: string): void {
  process.stderr.write(`candor: ${message}\n`);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function usage(message: string): number {
  process.stderr.write(`candor: ${message}\n\n${USAGE}\n`);
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts')) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`candor: ${error instanceof CandorError ? error.message : (error as Error).stack}\n`);
      process.exitCode = 1;
    },
  );
}
