import { apiRoutes } from './channels/http/api-routes.js';
import { startHttpServer } from './channels/http/http-server.js';
import type { App } from './main.js';
import { startSlackChannel } from './channels/slack/slack-channel.js';
import { startTeamsChannel } from './channels/teams/teams-channel.js';
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
  const channels = ['http'];
  // A chat channel that cannot start (Slack rejects the token) stops the whole start: exit non-zero, say why.
  const slack = app.config.slack ? await startSlackChannel(app).catch(closeAndThrow(app)) : null;
  if (slack?.route) routes.push(slack.route);
  if (slack) channels.push(slack.mode === 'socket' ? 'slack (Socket Mode)' : 'slack (/slack/events)');
  const teams = app.config.teams ? startTeamsChannel(app) : null;
  if (teams) routes.push(teams.route);
  if (teams) channels.push(teams.anonymous ? 'teams (/api/messages, ANONYMOUS: development only)' : 'teams (/api/messages)');
  const running = await startHttpServer(routes, { host: app.config.http.host, port: app.config.http.port, log: app.log });
  process.stderr.write(
    `Candor is serving on ${running.url} (store: ${app.store.kind}, channels: ${channels.join(', ')})\n` +
      `Ask: curl -s ${running.url}/api/ask -H 'content-type: application/json' -d '{"question":"What does MediShield Life cover?"}'\n`,
  );
  const shutdown = async (signal: string) => {
    app.log('info', 'shutting down', { signal });
    await running.stop();
    await slack?.stop();
    await teams?.stop();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

function closeAndThrow(app: App): (error: unknown) => Promise<never> {
  return async (error) => {
    await app.close().catch(() => undefined);
    throw error;
  };
}
