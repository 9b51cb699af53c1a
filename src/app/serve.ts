import { checkChannelKbs } from '../channels/chat/channel-map.js';
import { apiRoutes, type Route } from '../channels/http/api-routes.js';
import { startHttpServer } from '../channels/http/http-server.js';
import { metricsRoute } from '../channels/http/metrics-route.js';
import { startSlackChannel } from '../channels/slack/slack-channel.js';
import { startTeamsChannel } from '../channels/teams/teams-channel.js';
import { channelsOff, mappedKbs } from '../config/channels-setting.js';
import { createConsoleGaps } from '../console/console-gaps.js';
import { createConsoleFactEdits, createConsoleReads } from '../console/console-reads.js';
import { createConsoleReview } from '../console/console-review.js';
import { createConsoleSessions } from '../console/console-sessions.js';
import { createConsoleSources } from '../console/console-sources.js';
import { consoleRoutes } from '../console/pages/console-routes.js';
import { consoleStartLine, signInLinks } from '../console/pages/sign-in-link.js';
import { startExpertDelivery } from '../gaps/expert-delivery.js';
import { createExpertDesk } from '../gaps/expert-desk.js';
import type { ExpertDesk } from '../gaps/expert-types.js';
import { kbStatus } from '../kb/ingest/ingest.js';
import { startSourceSchedule } from '../kb/sources/source-runner.js';
import { captureConsole } from '../kernel/console-capture.js';
import { describeError } from '../kernel/errors.js';
import { startReviewSchedules } from '../review/review-schedules.js';
import { startGapMetrics } from '../telemetry/gap-metrics.js';
import { startOpsMetrics } from '../telemetry/ops-metrics.js';
import { startSourceMetrics } from '../telemetry/source-metrics.js';
import { createChatServices } from './chat-services.js';
import { guardProcess } from './guard-process.js';
import type { Candor } from './main.js';
import { sourceRunnerDeps } from './source-sync.js';

/** Something serve started, and how to stop it. */
type Stop = () => unknown;

/**
 * Starts the HTTP server with every configured channel, and stops gracefully on SIGINT/SIGTERM. A start that
 * fails part-way (a chat channel refused, the port taken) stops what it had started and closes the store (which
 * releases an embedded data folder) before the error goes up, so the process exits by itself.
 */
export async function serve(app: Candor): Promise<void> {
  // Stopped newest first; the store last.
  const started: Stop[] = [() => app.close()];
  let stopping: Promise<never> | undefined;
  const shutdown = (signal: string, exitCode = 0): Promise<never> =>
    (stopping ??= (async () => {
      app.log(exitCode === 0 ? 'info' : 'error', 'shutting down', { signal });
      // A part that does not stop cleanly (a store on a failed disk; the next start replays its WAL) exits non-zero.
      return process.exit((await stopAll(started, app.log)) ? exitCode : exitCode || 1);
    })());
  // Listening before anything starts: until a listener exists the operating system's default for SIGTERM applies (the
  // process dies at once, the store unclosed), and a supervisor may signal as soon as it reads "serving", or earlier.
  const onSigint = () => void shutdown('SIGINT');
  const onSigterm = () => void shutdown('SIGTERM');
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  // EX_SOFTWARE: the supervisor (Kubernetes, compose, systemd) starts a clean process.
  const unguard = guardProcess({ log: app.log, fatal: (reason) => void shutdown(reason, 70) });
  try {
    await start(app, started);
  } catch (error) {
    if (stopping) return stopping; // a signal came during the start: its shutdown ends the process
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    unguard();
    await stopAll(started, app.log);
    throw error;
  }
}

async function start(app: Candor, started: Stop[]): Promise<void> {
  // What libraries print (the Bot Framework does, over several lines) becomes one JSON line of ours.
  started.push(captureConsole(app.log));
  // Indexes are built off the request path from now on, starting with every KB the channels name.
  const served = mappedKbs(app.config.channels, app.config.kb.defaultName);
  app.indexes.serveWhileBuilding({ maxWaitMs: app.config.kb.indexWaitMs, ...indexSnapshots(app) });
  // One experts desk for the chat channels and the console: a gap closed in the console updates its chat posts at once.
  const chat = createChatServices(app);
  const routes = httpRoutes(app, served, chat.experts);
  const channels = ['http'];
  await checkChannelKbs(app.config.channels, app.config.kb.defaultName, (kb) => kbStatus(app.store.db, kb));
  // A chat channel that cannot start (Slack rejects the token) stops the whole start: exit non-zero, say why.
  const slack = app.config.slack ? await startSlackChannel(chat) : null;
  if (slack) started.push(() => slack.stop());
  if (slack?.route) routes.push(slack.route);
  if (slack) channels.push(slack.mode === 'socket' ? 'slack (Socket Mode)' : 'slack (/slack/events)');
  const teams = app.config.teams ? startTeamsChannel(chat) : null;
  if (teams) started.push(() => teams.stop());
  if (teams) routes.push(teams.route);
  if (teams) channels.push(teams.anonymous ? 'teams (/api/messages, ANONYMOUS: development only)' : 'teams (/api/messages)');
  const unreachable = channelsOff(app.config.channels, { slack: slack !== null, teams: teams !== null });
  if (unreachable) app.log('warn', unreachable);
  const running = await startHttpServer(routes, { host: app.config.http.host, port: app.config.http.port, log: app.log });
  started.push(() => running.stop());
  const indexRefresh = await keepIndexesWarm(app, served);
  started.push(() => indexRefresh.stop());
  const experts = startExpertDelivery(chat.experts, app.config.experts.deliverMs, app.log);
  started.push(() => experts.stop());
  const gapMetrics = startGapMetrics({ db: app.store.db, log: app.log });
  started.push(() => gapMetrics.stop());
  const chatChannels = [...(slack ? ['slack'] : []), ...(teams ? ['teams'] : [])];
  const opsMetrics = startOpsMetrics({ db: app.store.db, log: app.log, channels: chatChannels });
  started.push(() => opsMetrics.stop());
  const sourceMetrics = startSourceMetrics({ db: app.store.db, log: app.log, staleDays: app.config.sources.staleDays });
  started.push(() => sourceMetrics.stop());
  const sourceSyncs = startSourceSchedule(sourceRunnerDeps(app), app.config.sources.pollMs);
  started.push(() => sourceSyncs.stop());
  const schedules = await startReviewSchedules(app, {
    postPending: async () => (await (slack?.review.postPending() ?? 0)) + (await (teams?.postPendingReviews() ?? 0)),
    postSummary: async (text) => {
      await slack?.review.postSummary(text);
      await teams?.postReviewSummary(text);
    },
  });
  started.push(() => schedules.stop());
  // The printed link is stored (as a digest), so it signs in on whichever replica the browser reaches.
  const links = signInLinks(createConsoleSessions(app.store.db));
  const startLine = await consoleStartLine(running.url, app.config.console, { production: app.config.production, links });
  process.stderr.write(
    `Candor is serving on ${running.url} (store: ${app.store.kind}, channels: ${channels.join(', ')})\n` +
      `Ask: curl -s ${running.url}/api/ask -H 'content-type: application/json' -d '{"question":"What does MediShield Life cover?"}'\n` +
      `Console: ${startLine}\n`,
  );
  if (app.config.production && app.config.telemetry.userHashSalt === 'candor') {
    app.log('warn', 'CANDOR_USER_HASH_SALT is the default: set a secret of your own so stored user hashes cannot be recomputed');
  }
}

/** Stops every part, newest first, each even when one before it failed; false when one did. */
async function stopAll(started: readonly Stop[], log: Candor['log']): Promise<boolean> {
  let clean = true;
  for (const stop of [...started].reverse()) {
    try {
      await stop();
    } catch (error) {
      clean = false;
      log('error', 'shutdown did not finish cleanly', { error: describeError(error) });
    }
  }
  return clean;
}

/**
 * The HTTP routes every server has, whatever its channels: the API (/api/ask, /healthz), /metrics and the console.
 * `experts` is the desk the chat channels attached to (serve passes it); without one the console's desk posts and
 * tells nothing itself, as the CLI's does, and the server's delivery tells the askers.
 */
export function httpRoutes(app: Candor, served: readonly string[], experts?: ExpertDesk): Route[] {
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
      gaps: createConsoleGaps({
        db: app.store.db,
        indexes: app.indexes,
        desk:
          experts ??
          createExpertDesk({
            db: app.store.db,
            indexes: app.indexes,
            experts: app.config.experts.kbs,
            secret: app.config.telemetry.userHashSalt,
            log: app.log,
          }),
      }),
      review: createConsoleReview(app.store.db, { reviewers: app.config.review.reviewers, tasks: app.config.review.tasks }),
      sources: createConsoleSources({
        db: app.store.db,
        experts: app.config.experts.kbs,
        staleDays: app.config.sources.staleDays,
        pollMs: app.config.sources.pollMs,
      }),
      ask: app.ask,
      settings: app.config.console,
      defaultKb: app.config.kb.defaultName,
      maxBodyBytes: app.config.http.maxBodyBytes,
      sessions: createConsoleSessions(app.store.db),
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
        app.indexes.serveWhileBuilding({
          maxWaitMs: app.config.kb.indexWaitMs,
          trustVersionsMs: app.config.kb.indexRefreshMs,
          ...indexSnapshots(app),
        });
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

/** Where a server keeps built indexes for its next start, and how it says why one was not used. */
function indexSnapshots(app: Candor) {
  return {
    snapshotDir: app.config.kb.indexSnapshotDir,
    snapshotSkipped: (kb: string, reason: string) =>
      app.log('info', 'an index snapshot was not used (the index is built from the store) or not saved', { kb, reason }),
  };
}
