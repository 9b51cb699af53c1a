import type { Command } from 'commander';

import type { Candor } from '../app/main.js';
import { sourceRunnerDeps } from '../app/source-sync.js';
import { formatDuration } from '../core/text/duration.js';
import { addSource, documentStates, listSources, removeSource, type NewSource } from '../kb/sources/source-records.js';
import { syncSourcesNow } from '../kb/sources/source-runner.js';
import { parseSourceSpec } from '../kb/sources/source-spec.js';
import { sourceView, type SourceView } from '../kb/sources/source-view.js';
import type { SyncResult } from '../kb/sources/sync-source.js';
import { CandorError } from '../kernel/errors.js';
import type { Cli, Out } from './cli-context.js';
import { jsonOption, kbOption, wholeNumber } from './cli-options.js';
import { count } from './format.js';

/** `candor sources add SOURCE --kb KB`: the source is stored, and synced at once by a running server (or `sources sync`). */
export async function sourcesAdd(app: Candor, spec: NewSource, options: { json?: boolean | undefined }, out: Out): Promise<number> {
  const row = await addSource(app.store.db, spec, new Date());
  if (row === null)
    throw new CandorError('conflict', `Knowledge base "${spec.kb}" already has the source ${spec.source}: see candor sources list.`);
  out(
    options.json
      ? JSON.stringify({ outcome: 'added', source: sourceView(row, {}, app.config.sources.staleDays) })
      : `Source ${row.id} added to "${row.kb}": ${row.source} (${row.kind}), synced every ${formatDuration(row.everySeconds)}. ` +
          `A running server syncs it within ${Math.round(app.config.sources.pollMs / 1000)} s; or now: candor sources sync --id ${row.id}`,
  );
  return 0;
}

/** `candor sources list`: each source with its last sync and its documents by state. */
export async function sourcesList(
  app: Candor,
  options: { kb?: string | undefined; json?: boolean | undefined },
  out: Out,
): Promise<number> {
  const { staleDays } = app.config.sources;
  const rows = await listSources(app.store.db, options.kb);
  const states = await documentStates(app.store.db, new Date(Date.now() - staleDays * 86_400_000));
  const views = rows.map((row) => sourceView(row, states.get(row.id) ?? {}, staleDays));
  if (options.json) out(JSON.stringify({ sources: views }));
  else if (views.length === 0) out('No sources. Add one with: candor sources add https://intranet.example.com/sitemap.xml --kb handbook');
  else out(views.map(formatSource).join('\n'));
  return 0;
}

/** `candor sources sync [--kb KB] [--id ID]`: syncs now, with progress; exit code 1 when a source failed. */
export async function sourcesSync(
  app: Candor,
  options: { kb?: string | undefined; id?: number | undefined; json?: boolean | undefined },
  out: Out,
  progress: (line: string) => void,
): Promise<number> {
  const which = { ...(options.kb !== undefined ? { kb: options.kb } : {}), ...(options.id !== undefined ? { id: options.id } : {}) };
  const results = await syncSourcesNow(sourceRunnerDeps(app), which, { onProgress: progress });
  if (results.length === 0 && options.id !== undefined)
    throw new CandorError(
      'not_found',
      `There is no source ${options.id}${options.kb ? ` of "${options.kb}"` : ''}: see candor sources list.`,
    );
  out(
    options.json
      ? JSON.stringify({ sources: results })
      : results.length === 0
        ? 'No sources to sync: add one with candor sources add.'
        : results.map(formatResult).join('\n'),
  );
  return results.some((result) => result.outcome === 'failed') ? 1 : 0;
}

/** `candor sources remove ID`: no more syncs; the documents it brought stay in the KB. */
export async function sourcesRemove(app: Candor, options: { id: number; json?: boolean | undefined }, out: Out): Promise<number> {
  const row = await removeSource(app.store.db, options.id);
  if (row === null) throw new CandorError('not_found', `There is no source ${options.id}: see candor sources list.`);
  out(
    options.json
      ? JSON.stringify({ outcome: 'removed', id: row.id, kb: row.kb, source: row.source })
      : `Source ${row.id} (${row.source}) removed from "${row.kb}": it is no longer synced. The documents it brought stay in the KB.`,
  );
  return 0;
}

function formatSource(view: SourceView): string {
  const last = view.lastSync
    ? `last sync ${view.lastSync.slice(0, 16).replace('T', ' ')} ${view.lastOutcome}` +
      (view.lastDocuments
        ? ` (${view.lastDocuments.fetched} fetched, ${view.lastDocuments.changed} changed, ${view.lastDocuments.removed} removed, ${view.lastDocuments.failed} failed)`
        : '')
    : 'never synced';
  const docs = view.documents;
  return [
    `${view.id}  ${view.kb}  ${view.source}  every ${view.every}`,
    `   ${last}; next ${view.nextRun.slice(0, 16).replace('T', ' ')}`,
    `   ${count(docs.active + docs.stale, 'document')} (${docs.stale} stale), ${docs.failed} failing, ${docs.gone} gone`,
    ...(view.lastError ? [`   last error: ${view.lastError}`] : []),
  ].join('\n');
}

function formatResult(r: SyncResult): string {
  const d = r.documents;
  const what = `${d.fetched} fetched, ${d.changed} changed, ${d.removed} removed, ${d.failed} failed`;
  const kb = r.outcome === 'changed' ? `"${r.kb}" is now at version ${r.version}` : `"${r.kb}" stays at version ${r.version}`;
  return `source ${r.id} ${r.outcome}: ${what}; ${kb}${r.error ? `\n   error: ${r.error}` : ''}`;
}

const sourceId = wholeNumber(1, 2 ** 31 - 1);

/** `candor sources add|list|sync|remove`. */
export function registerSources(program: Command, cli: Cli): void {
  const sources = program
    .command('sources')
    .description('keep a KB where its documents live: web pages, sitemaps and folders, synced on a schedule')
    .addHelpText(
      'after',
      '\nA running server syncs each source every --every, one replica at a time; a sync makes a new KB version only when a\n' +
        'document changed, retires documents gone at the source, and keeps the previous facts of a document that fails.',
    );
  sources
    .command('add')
    .description('add a source: an http(s) URL of a page or a sitemap.xml, or a folder')
    .argument('<source>', 'URL or folder')
    .addOption(kbOption())
    .option('--every <duration>', 'how often to sync: 30m, 6h, 1d (default 1d)')
    .option('--include <glob>', 'only documents whose path matches, e.g. "/policies/**" or "**/*.md"')
    .option('--max-pages <n>', 'documents one sync reads at most (default 10000)', wholeNumber(1, 1_000_000))
    .addOption(jsonOption())
    .action(async (source: string, opts: { kb?: string; every?: string; include?: string; maxPages?: number; json?: boolean }) => {
      const typed = /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? source : cli.path(source);
      // Checked before the store is opened: a mistyped source costs nothing.
      const spec = parseSourceSpec({ ...opts, source: typed, kb: opts.kb ?? cli.settings().kb.defaultName });
      cli.done(await cli.withApp('sources add', (app) => sourcesAdd(app, spec, opts, cli.print)));
    });
  sources
    .command('list')
    .description('each source: last sync, documents (active, stale, failing, gone), next run, last error')
    .addOption(kbOption('only the sources of this knowledge base'))
    .addOption(jsonOption())
    .action(async (opts: { kb?: string; json?: boolean }) =>
      cli.done(await cli.withApp('sources list', (app) => sourcesList(app, opts, cli.print))),
    );
  sources
    .command('sync')
    .description('sync now (all sources, a KB’s, or one), with progress on stderr; exit code 1 when one failed')
    .addOption(kbOption('only the sources of this knowledge base'))
    .option('--id <id>', 'only this source', sourceId)
    .addOption(jsonOption())
    .action(async (opts: { kb?: string; id?: number; json?: boolean }) =>
      cli.done(await cli.withApp('sources sync', (app) => sourcesSync(app, opts, cli.print, cli.progress))),
    );
  sources
    .command('remove')
    .description('stop syncing a source (its documents stay in the KB)')
    .argument('<id>', 'the source number (candor sources list)', sourceId)
    .addOption(jsonOption())
    .action(async (id: number, opts: { json?: boolean }) =>
      cli.done(await cli.withApp('sources remove', (app) => sourcesRemove(app, { id, ...opts }, cli.print))),
    );
}
