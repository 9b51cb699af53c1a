import type { SourceRunnerDeps } from '../kb/sources/source-runner.js';
import { createWebConnector } from '../kb/sources/web/web-connector.js';
import type { Candor } from './main.js';

/** What syncing sources runs on, from the root: the store, the ingest limits and links, the web connector. */
export function sourceRunnerDeps(app: Candor): SourceRunnerDeps {
  const { sources, ingest, kb } = app.config;
  return {
    store: app.store,
    log: app.log,
    limits: ingest,
    ...(kb.sourceUrls ? { sourceUrls: kb.sourceUrls } : {}),
    paceMs: sources.paceMs,
    timeoutMs: sources.timeoutMs,
    webConnector: webConnectorFor,
  };
}

/** The connector of a web source, within the ingest limits and at the configured pace. */
export const webConnectorFor: SourceRunnerDeps['webConnector'] = (row, options) =>
  createWebConnector(row.source, {
    maxFileBytes: options.limits.maxFileBytes,
    timeoutMs: options.timeoutMs,
    paceMs: options.paceMs,
    maxPages: row.maxPages,
    include: row.include,
  });
