import { apiRoutes } from './channels/http/api-routes.js';
import { startHttpServer } from './channels/http/http-server.js';
import type { App } from './main.js';
import { sql } from 'drizzle-orm';

/** Starts the HTTP server with every configured channel, and stops gracefully on SIGINT/SIGTERM. */
export async function serve(app: App): Promise<void> {
  const routes = [
    apiRoutes({
      ask: app.ask,
      maxBodyBytes: app.config.http.maxBodyBytes,
      healthy: async () => {
        await app.store.db.execute(sql`select 1`);
        return true;
      },
    }),
  ];
  const running = await startHttpServer(routes, { host: app.config.http.host, port: app.config.http.port, log: app.log });
  process.stderr.write(
    `Candor is serving on ${running.url} (store: ${app.store.kind}, channels: http)\n` +
      `Ask: curl -s ${running.url}/api/ask -H 'content-type: application/json' -d '{"question":"What does MediShield Life cover?"}'\n`,
  );
  const shutdown = async (signal: string) => {
    app.log('info', 'shutting down', { signal });
    await running.stop();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
