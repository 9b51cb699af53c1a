import { checkChannelKbs } from './channels/chat/channel-map.js';
import { apiRoutes, type Route } from './channels/http/api-routes.js';
import { consoleRoutes } from './channels/http/console/console-routes.js';
import { startHttpServer } from './channels/http/http-server.js';
import { metricsRoute } from './channels/http/metrics-route.js';
import { startSlackChannel } from './channels/slack/slack-channel.js';
import { startTeamsChannel } from './channels/teams/teams-channel.js';
import { createChatServices } from './chat-services.js';
import { mappedKbs } from './config/channels-setting.js';
import { createConsoleFactEdits, createConsoleReads } from './console/console-reads.js';
import { createConsoleReview } from './console/console-review.js';
import { describeError } from './errors.js';
import { startExpertDelivery } from './gaps/expert-delivery.js';
import { guardProcess } from './guard-process.js';
import { kbStatus } from './kb/ingest/ingest.js';
import type { Candor } from './main.js';
import { startReviewSchedules } from './review/review-schedules.js';
import { startGapMetrics } from './telemetry/gap-metrics.js';
import { startOpsMetrics } from './telemetry/ops-metrics.js';

/** Starts the HTTP server with every configured channel, and stops gracefully on SIGINT/SIGTERM. */
export async function serve(app: Candor): Promise<void> {
  // Indexes are built off the request path from now on, starting with every KB the channels name.
  const served = mappedKbs(app.config.channels, app.config.kb.defaultName);
  app.indexes.serveWhileBuilding({ maxWaitMs: app.config.kb.indexWaitMs });
  const routes = httpRoutes(app, served);
  const channels = ['http'];
  await checkChannelKbs(app.config.channels, app.config.kb.defaultName, (kb) => kbStatus(app.store.db, kb)).catch(closeAndThrow(app));
  // A chat channel that cannot start (Slack rejects the token) stops the whole start: exit non-zero, say why.
  const chat = createChatServices(app);
  const slack = app.config.slack ? await startSlackChannel(chat).catch(closeAndThrow(app)) : null;
  if (slack?.route) routes.push(slack.route);
  if (slack) channels.push(slack.mode === 'socket' ? 'slack (Socket Mode)' : 'slack (/slack/events)');
  const teams = app.config.teams ? startTeamsChannel(chat) : null;
  if (teams) routes.push(teams.route);
  if (teams) channels.push(teams.anonymous ? 'teams (/api/messages, ANONYMOUS: development only)' : 'teams (/api/messages)');
  const running = await startHttpServer(routes, { host: app.config.http.host, port: app.config.http.port, log: app.log });
  const indexRefresh = await keepIndexesWarm(app, served);
  const experts = startExpertDelivery(chat.experts, app.config.experts.deliverMs, app.log);
  const gapMetrics = startGapMetrics({ db: app.store.db, log: app.log });
  const chatChannels = [...(slack ? ['slack'] : []), ...(teams ? ['teams'] : [])];
  const opsMetrics = startOpsMetrics({ db: app.store.db, log: app.log, channels: chatChannels });
  const schedules = await startReviewSchedules(app, {
    postPending: async () => (await (slack?.review.postPending() ?? 0)) + (await (teams?.postPendingReviews() ?? 0)),
    postSummary: async (text) => {
      await slack?.review.postSummary(text);
      await teams?.postReviewSummary(text);
    },
  });
  process.stderr.write(
    `Candor is serving on ${running.url} (store: ${app.store.kind}, channels: ${channels.join(', ')})\n` +
      `Ask: curl -s ${running.url}/api/ask -H 'content-type: application/json' -d '{"question":"What does MediShield Life cover?"}'\n` +
      `Console: ${app.config.console.enabled ? `${running.url}/` : 'off (set CANDOR_CONSOLE_TOKEN or CANDOR_CONSOLE_BASIC_AUTH to open it)'}\n`,
  );
  if (app.config.production && app.config.telemetry.userHashSalt === 'candor') {
    app.log('warn', 'CANDOR_USER_HASH_SALT is the default: set a secret of your own so stored user hashes cannot be recomputed');
  }
  const shutdown = async (signal: string, exitCode = 0) => {
    app.log(exitCode === 0 ? 'info' : 'error', 'shutting down', { signal });
    try {
      schedules.stop();
      await indexRefresh.stop();
      experts.stop();
      gapMetrics.stop();
      opsMetrics.stop();
      await running.stop();
      await slack?.stop();
      await teams?.stop();
      await app.close();
    } catch (error) {
      // Exit all the same (a store on a failed disk may not close cleanly; the next start replays its WAL).
      app.log('error', 'shutdown did not finish cleanly', { error: describeError(error) });
      process.exit(exitCode || 1);
    }
    process.exit(exitCode);
  };
  // EX_SOFTWARE: the supervisor (Kubernetes, compose, systemd) starts a clean process.
  guardProcess({ log: app.log, fatal: (reason) => void shutdown(reason, 70) });
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/** The HTTP routes every server has, whatever its channels: the API (/api/ask, /healthz), /metrics and the console. */
export function httpRoutes(app: Candor, served: readonly string[]): Route[] {
  const routes: Route[] = [
    apiRoutes({
      ask: app.ask,
      maxBodyBytes: app.config.http.maxBodyBytes,
      health: [{ name: 'database', check: () => app.store.ping() }],
      indexes: () => app.indexes.readiness(served),
      token: app.config.http.apiToken,
    }),
  ];
  if (app.metrics) routes.push(metricsRoute(app.metrics, { token: app.config.http.metricsToken }));
  routes.push(
    consoleRoutes({
      reads: createConsoleReads(app.store.db, app.indexes, {
        expertDays: (kb) => app.config.experts.kbs.find((e) => e.kb === kb)?.reconfirmDays,
      }),
      facts: createConsoleFactEdits(app.store.db),
      review: createConsoleReview(app.store.db, { reviewers: app.config.review.reviewers, tasks: app.config.review.tasks }),
      ask: app.ask,
      settings: app.config.console,
      defaultKb: app.config.kb.defaultName,
      maxBodyBytes: app.config.http.maxBodyBytes,
    }),
  );
  return routes;
}

/**
 * Builds the served KBs' indexes now, and again as soon as the store announces a new version (an ingest or an
 * expert answer in any process), so that the next ask finds it ready. Between announcements a KB's version
 * is not read per ask; CANDOR_INDEX_REFRESH_MS bounds how long a missed announcement could go unnoticed (the
 * fallback poll). A failed look is logged and tried on the next tick.
 */
async function keepIndexesWarm(app: Candor, kbs: readonly string[]): Promise<{ stop(): Promise<void> }> {
  const warm = (names: readonly string[]) =>
    app.indexes
      .warm(names)
      .catch((error: unknown) => app.log('warn', 'could not look for new KB versions', { error: describeError(error) }));
  const unwatch = await app.store
    .watchKbChanges((kb) => {
      app.indexes.changed(kb);
      void warm(kb === null ? kbs : kbs.filter((served) => served === kb));
    })
    .then(
      (stop) => {
        app.indexes.serveWhileBuilding({ maxWaitMs: app.config.kb.indexWaitMs, trustVersionsMs: app.config.kb.indexRefreshMs });
        return stop;
      },
      (error: unknown) => {
        app.log('warn', 'could not listen for KB changes: each ask reads its KB version', { error: describeError(error) });
        return async () => undefined;
      },
    );
  // "Serving" is said once the first builds are done (or CANDOR_INDEX_WAIT_MS has passed: /healthz says which KB is still warming).
  await warm(kbs);
  await app.indexes.built(kbs, app.config.kb.indexWaitMs);
  const timer = setInterval(() => void warm(kbs), app.config.kb.indexRefreshMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await unwatch();
    },
  };
}

function closeAndThrow(app: Candor): (error: unknown) => Promise<never> {
  return async (error) => {
    await app.close().catch(() => undefined);
    throw error;
  };
}
