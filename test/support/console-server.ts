import type { Candor } from '../../src/app/main.js';
import type { Route } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import type { Config } from '../../src/config.js';
import { createConsoleFactEdits, createConsoleReads } from '../../src/console/console-reads.js';
import { createConsoleSessions } from '../../src/console/console-sessions.js';
import { consoleRoutes, type ConsoleDeps } from '../../src/console/pages/console-routes.js';
import type { Store } from '../../src/store/open-store.js';
import { composeAsk } from './compose.js';

/** The console alone over real HTTP on a free port, on `app`'s store, settings and ask, as the tests of its pages use it. */
export function startConsole(app: Candor, options: { defaultKb: string; expertDays?: () => number }): Promise<RunningServer> {
  const reads = createConsoleReads(app.store.db, app.indexes, options.expertDays ? { expertDays: options.expertDays } : {});
  return startHttpServer(
    [
      consoleRoutes({
        reads,
        facts: createConsoleFactEdits(app.store.db),
        ask: app.ask,
        settings: app.config.console,
        defaultKb: options.defaultKb,
        maxBodyBytes: 65_536,
        sessions: createConsoleSessions(app.store.db),
      }),
    ],
    { host: '127.0.0.1', port: 0, log: app.log },
  );
}

/**
 * The console's routes over a store opened by the test itself (no composition root): its reads, fact edits, ask
 * and sessions on `store`, for the default KB, with `more` over them.
 */
export function consoleRoutesOn(store: Store, config: Config, more: Partial<ConsoleDeps> = {}): Route {
  const { ask, indexes } = composeAsk(store, config);
  return consoleRoutes({
    reads: createConsoleReads(store.db, indexes),
    facts: createConsoleFactEdits(store.db),
    ask,
    settings: config.console,
    defaultKb: 'default',
    maxBodyBytes: 65_536,
    sessions: createConsoleSessions(store.db),
    ...more,
  });
}
