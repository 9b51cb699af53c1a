import type { Candor } from '../../src/app/main.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { createConsoleFactEdits, createConsoleReads } from '../../src/console/console-reads.js';
import { createConsoleSessions } from '../../src/console/console-sessions.js';
import { consoleRoutes } from '../../src/console/pages/console-routes.js';

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
