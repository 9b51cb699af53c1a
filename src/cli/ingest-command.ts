import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import { embedMissingFacts, type EmbedSummary } from '../kb/embed-facts.js';
import { ingestPaths, kbStatus, type IngestOptions, type IngestSummary } from '../kb/ingest/ingest.js';
import { extractFacts } from '../llm/extract-facts.js';
import type { Cli } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';
import { count, seconds } from './format.js';

/** Beside the code (src/ or dist/src/), so `candor start` finds it from any working directory. */
export const EXAMPLE_KB = [fileURLToPath(new URL('../../examples/kb', import.meta.url))];

type IngestServices = Pick<Services, 'store' | 'config' | 'llm'>;

/** `candor ingest PATH... [--kb NAME] [--json]`. */
export function registerIngest(program: Command, cli: Cli): void {
  program
    .command('ingest')
    .description('documents (.txt .md .html .pdf .docx) or facts (.jsonl) → facts of a knowledge base')
    .argument('<paths...>', 'files or folders')
    .addOption(kbOption())
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nDocuments are split into facts; .jsonl lines {"id","text","source"?} are taken as facts. Unchanged files change\n' +
        'nothing; a changed file makes a new KB version. Exit code 1 when a file could not be read (the rest is stored).',
    )
    .action(async (paths: string[], opts: { kb?: string; json?: boolean }) => {
      const kb = opts.kb ?? cli.settings().kb.defaultName;
      const code = await cli.withApp('ingest', async (app) => {
        const summary = await ingestPaths(app.store.db, paths.map(cli.path), ingestOptions(app, kb, cli));
        const embeddings = await embedAfterIngest(app, kb, cli);
        printIngest(cli, embeddings.summary ? { ...summary, embeddings: embeddings.summary } : summary, opts.json === true);
        // a file that could not be read fails the run (the rest of the batch is stored all the same)
        return summary.errors.length > 0 || (summary.documents === 0 && summary.skipped.length > 0) || embeddings.failed ? 1 : 0;
      });
      cli.done(code);
    });
}

/** Ingests the example documents when the KB has no facts yet (`candor start`). */
export async function ensureExampleKb(app: IngestServices, kb: string, cli: Cli): Promise<void> {
  const status = await kbStatus(app.store.db, kb);
  if (status && status.facts > 0) return;
  cli.progress(`knowledge base "${kb}" is empty: ingesting the example documents in ${EXAMPLE_KB.join(', ')}`);
  const summary = await ingestPaths(app.store.db, EXAMPLE_KB, ingestOptions(app, kb, cli));
  printIngest(cli, summary, false, cli.err);
  await embedAfterIngest(app, kb, cli);
}

function ingestOptions(app: IngestServices, kb: string, cli: Cli): IngestOptions {
  const llm = app.llm;
  return {
    kb,
    onProgress: cli.progress,
    limits: app.config.ingest,
    sourceUrls: app.config.kb.sourceUrls,
    // LLM fact extraction when CANDOR_FACT_EXTRACTION=llm (config guarantees a model then)
    ...(app.config.kb.factExtraction === 'llm' && llm ? { extractFacts: (passage) => extractFacts(llm, passage) } : {}),
  };
}

/**
 * With an embedding model configured, embeds the facts that have none yet.
 * A failure keeps the facts (retrieval stays lexical for them) and says how to resume.
 */
async function embedAfterIngest(app: IngestServices, kb: string, cli: Cli): Promise<{ summary?: EmbedSummary; failed: boolean }> {
  if (!app.llm?.embeddingModel) return { failed: false };
  try {
    const summary = await embedMissingFacts(app.store.db, app.llm, kb, { onProgress: cli.progress });
    if (summary.embedded > 0) cli.progress(`embedded ${count(summary.embedded, 'fact')} with ${summary.model}`);
    return { summary, failed: false };
  } catch (error) {
    cli.progress(`facts are stored, but embedding them failed (${(error as Error).message}); run the same ingest again to resume`);
    return { failed: true };
  }
}

function printIngest(
  cli: Cli,
  s: IngestSummary & { embeddings?: EmbedSummary },
  json: boolean,
  out: (text: string) => void = cli.out,
): void {
  for (const error of s.errors) cli.err(`candor: failed ${error.path}: ${error.reason}\n`);
  if (json) return out(`${JSON.stringify(s)}\n`);
  out(`${ingestLine(s)}\n`);
  if (s.kb.version > 0) {
    for (const [type, c] of Object.entries(s.byType)) {
      out(
        `  ${type}: ${count(c.files, 'file')}, ${count(c.facts, 'fact')} stored (${count(c.tableRows, 'table row')}), ${c.skipped} skipped, ${c.errors} failed\n`,
      );
    }
  }
  for (const skip of s.skipped.slice(0, 20)) cli.err(`  skipped ${skip.path}: ${skip.reason}\n`);
  if (s.skipped.length > 20) cli.err(`  … and ${s.skipped.length - 20} more skipped\n`);
}

/**
 * What the run changed, in one line: the KB's version (new or not), then documents, facts and links.
 * "Unchanged" counts only documents left as they were: one whose link changed is counted apart.
 */
function ingestLine(s: IngestSummary): string {
  const tail = `${s.skipped.length} skipped, ${s.errors.length} failed, ${seconds(s.ms)}`;
  // nothing stored in a KB that had nothing: none was made (a mistyped --kb or path leaves no empty KB behind)
  if (s.kb.version === 0) return `nothing stored: knowledge base "${s.kb.name}" was not made (${tail})`;
  const unchanged = s.unchanged - s.relinked;
  if (s.added + s.changed + s.relinked === 0) {
    return `knowledge base "${s.kb.name}" is unchanged at version ${s.kb.version}: ${count(unchanged, 'document')} unchanged; ${tail}`;
  }
  const docs = [
    `${s.added} added`,
    `${s.changed} changed`,
    ...(s.relinked > 0 ? [`${s.relinked} with a new link`] : []),
    `${unchanged} unchanged`,
  ];
  const facts = [
    `${count(s.facts, 'fact')} stored`,
    `${s.retiredFacts} retired`,
    ...(s.relinkedFacts > 0 ? [`${s.relinkedFacts} with a new link`] : []),
  ];
  return `knowledge base "${s.kb.name}" is now at version ${s.kb.version}: ${count(s.documents, 'document')} (${docs.join(', ')}); ${facts.join(', ')}; ${tail}`;
}
