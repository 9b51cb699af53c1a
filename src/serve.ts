import { sql } from 'drizzle-orm';

import { apiRoutes } from './channels/http/api-routes.js';
import { startHttpServer } from './channels/http/http-server.js';
import { metricsRoute } from './channels/http/metrics-route.js';
import { startSlackChannel } from './channels/slack/slack-channel.js';
import { startTeamsChannel } from './channels/teams/teams-channel.js';
import type { AgreementReport } from './core/review/agreement-report.js';
import { parseCron } from './core/schedule/cron.js';
import { agreementDeps, formatReport } from './judge/agreement-deps.js';
import { findReport, runAgreementReport, scheduledRunKey } from './judge/agreement-job.js';
import { createAgreementMetric } from './judge/agreement-metric.js';
import type { App } from './main.js';
import { sampleInteractions } from './review/sample-interactions.js';
import { runOnSchedule } from './run-on-schedule.js';

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
  if (app.metrics) routes.push(metricsRoute(app.metrics));
  const channels = ['http'];
  // A chat channel that cannot start (Slack rejects the token) stops the whole start: exit non-zero, say why.
  const slack = app.config.slack ? await startSlackChannel(app).catch(closeAndThrow(app)) : null;
  if (slack?.route) routes.push(slack.route);
  if (slack) channels.push(slack.mode === 'socket' ? 'slack (Socket Mode)' : 'slack (/slack/events)');
  const teams = app.config.teams ? startTeamsChannel(app) : null;
  if (teams) routes.push(teams.route);
  if (teams) channels.push(teams.anonymous ? 'teams (/api/messages, ANONYMOUS: development only)' : 'teams (/api/messages)');
  const running = await startHttpServer(routes, { host: app.config.http.host, port: app.config.http.port, log: app.log });
  const schedules = await startReviewSchedules(app, {
    postPending: async () => (await (slack?.review.postPending() ?? 0)) + (await (teams?.postPendingReviews() ?? 0)),
    postSummary: async (text) => {
      await slack?.review.postSummary(text);
      await teams?.postReviewSummary(text);
    },
  });
  process.stderr.write(
    `Candor is serving on ${running.url} (store: ${app.store.kind}, channels: ${channels.join(', ')})\n` +
      `Ask: curl -s ${running.url}/api/ask -H 'content-type: application/json' -d '{"question":"What does MediShield Life cover?"}'\n`,
  );
  const shutdown = async (signal: string) => {
    app.log('info', 'shutting down', { signal });
    schedules.stop();
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

/**
 * The review loop every replica runs: at each CANDOR_REVIEW_CRON slot, sample
 * new interactions and post their cards; at each CANDOR_AGREEMENT_CRON slot,
 * run the agreement report (one replica does it: a lock and the slot's run
 * key), export its kappas and post its summary to the review channel.
 */
async function startReviewSchedules(
  app: App,
  channels: { postPending: () => Promise<number>; postSummary: (text: string) => Promise<void> },
): Promise<{ stop(): void }> {
  const { review } = app.config;
  const metric = createAgreementMetric();
  const latest = await findReport(app.store).catch(() => null);
  if (latest) metric.update(latest as AgreementReport);
  const reviewing = review.reviewers.length > 0 || review.slackChannel !== undefined || review.teamsConversation !== undefined;
  const sampler = reviewing
    ? runOnSchedule(
        parseCron(review.reviewCron),
        async (slot) => {
          const picked = await sampleInteractions(app.store.db, {
            answeredRate: review.answeredRate,
            abstainedRate: review.abstainedRate,
            maxPerRun: review.maxPerRun,
            seed: Math.floor(slot.getTime() / 60_000) % 2 ** 31,
          });
          const posted = await channels.postPending();
          app.log('info', 'review samples', { sampled: picked.length, posted });
        },
        { name: 'review sampling', log: app.log },
      )
    : null;
  const schedule = parseCron(review.agreementCron);
  const reports = runOnSchedule(
    schedule,
    async (slot) => {
      const run = await runAgreementReport(agreementDeps(app), scheduledRunKey(schedule, slot));
      app.log('info', 'agreement report', { status: run.status, runKey: run.runKey });
      if (run.status !== 'created') return;
      metric.update(run.report as AgreementReport);
      await channels.postSummary(formatReport({ ...(run.report as AgreementReport), runKey: run.runKey }));
    },
    { name: 'agreement report', log: app.log },
  );
  return {
    stop() {
      sampler?.stop();
      reports.stop();
    },
  };
}
