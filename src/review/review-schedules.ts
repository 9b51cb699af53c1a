import type { Services } from '../ask/services.js';
import { parseCron } from '../schedule/cron-schedule.js';
import { runOnSchedule } from '../schedule/run-on-schedule.js';
import { agreementDeps, formatReport } from './judge/agreement-deps.js';
import { findReport, runAgreementReport, scheduledRunKey } from './judge/agreement-job.js';
import { createAgreementMetric } from './judge/agreement-metric.js';
import { sampleInteractions } from './sample-interactions.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'config' | 'store' | 'log' | 'llm'>;

/** Where review cards and the agreement summary go (the chat channels that are on). */
export interface ReviewOutlets {
  /** Posts cards for samples not yet posted; returns how many. */
  postPending(): Promise<number>;
  postSummary(text: string): Promise<void>;
}

/**
 * The review loop every replica runs: at each CANDOR_REVIEW_CRON slot, sample
 * new interactions and post their cards; at each CANDOR_AGREEMENT_CRON slot,
 * run the agreement report (one replica does it: a lock and the slot's run
 * key), export its kappas and post its summary to the review channel.
 */
export async function startReviewSchedules(app: CommandServices, channels: ReviewOutlets): Promise<{ stop(): void }> {
  const { review } = app.config;
  const metric = createAgreementMetric();
  const latest = await findReport(app.store).catch(() => null);
  if (latest) metric.update(latest);
  const reviewing = review.reviewers.length > 0 || review.slackChannel !== undefined || review.teamsConversation !== undefined;
  const sampler = reviewing
    ? runOnSchedule(
        parseCron(review.reviewCron, { timezone: review.timezone }),
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
  const schedule = parseCron(review.agreementCron, { timezone: review.timezone });
  const reports = runOnSchedule(
    schedule,
    async (slot) => {
      const run = await runAgreementReport(agreementDeps(app), scheduledRunKey(schedule, slot));
      app.log('info', 'agreement report', { status: run.status, runKey: run.runKey });
      if (run.status !== 'created') return;
      metric.update(run.report);
      await channels.postSummary(formatReport(run.report));
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
