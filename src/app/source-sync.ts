import type { Connector } from '../kb/sources/connector.js';
import type { SourceRunnerDeps } from '../kb/sources/source-runner.js';
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
    webConnector: (): Connector => ({
      list: async () => ({ ok: false, reason: 'web sources are not read yet' }),
      fetch: async () => ({ kind: 'failed', reason: 'web sources are not read yet' }),
    }),
  };
}
