import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildAgreementReport } from '../../../src/core/review/agreement-report.js';
import { runAgreementReport, scheduledRunKey, type AgreementJobDeps, type AgreementRun } from '../../../src/review/judge/agreement-job.js';
import { parseCron } from '../../../src/schedule/cron-schedule.js';
import { runOnSchedule } from '../../../src/schedule/run-on-schedule.js';
import { openStore, type Store } from '../../../src/store/open-store.js';
import { agreementReports } from '../../../src/store/schema.js';
import { createTestStore, type TestStore } from '../../support/stores.js';

const TIMEZONE = 'Europe/Amsterdam';

describe('scheduled agreement reports across replicas, in Europe/Amsterdam', () => {
  let base: TestStore;
  let other: Store;

  beforeAll(async () => {
    base = await createTestStore('postgres');
    // A second replica: its own pool on the same database.
    other = await openStore({ databaseUrl: base.databaseUrl, dataDir: 'unused', poolSize: 2 });
  }, 60_000);

  afterAll(async () => {
    await other?.close();
    await base?.dispose();
  });

  const deps = (store: Store): AgreementJobDeps => ({
    store,
    judge: null,
    ruleJudges: [],
    buildReport: (labels) => buildAgreementReport(labels, { seed: 1 }),
  });

  /**
   * One replica as src/review/review-schedules.ts wires it: its own parse of the schedule, its own clock
   * (frozen just before the slot, so its first run is that slot), the run key from the slot.
   */
  const replica = (store: Store, clock: string) =>
    new Promise<AgreementRun>((resolve, reject) => {
      const schedule = parseCron('30 2 * * *', { timezone: TIMEZONE });
      const handle = runOnSchedule(
        schedule,
        async (slot) => {
          handle.stop();
          await runAgreementReport(deps(store), scheduledRunKey(schedule, slot)).then(resolve, reject);
        },
        { name: 'agreement report', now: () => new Date(clock) },
      );
    });

  it('two replicas firing for 02:30 on the fall-back day make one report, under one run key', async () => {
    const runs = await Promise.all([replica(base.store, '2026-10-25T00:29:59.700Z'), replica(other, '2026-10-25T00:29:59.200Z')]);
    expect(runs.map((r) => r.runKey)).toEqual(['scheduled:2026-10-25T00:30Z', 'scheduled:2026-10-25T00:30Z']);
    expect(runs.filter((r) => r.status === 'created')).toHaveLength(1);
    expect(runs.filter((r) => r.status !== 'created').map((r) => r.status)).toEqual([expect.stringMatching(/^(busy|exists)$/)]);
    const rows = await base.store.db.select({ runKey: agreementReports.runKey }).from(agreementReports);
    expect(rows).toEqual([{ runKey: 'scheduled:2026-10-25T00:30Z' }]);
  }, 30_000);

  it('a replica computing the key later in the day, or in the repeated hour, finds the report made', async () => {
    const schedule = parseCron('30 2 * * *', { timezone: TIMEZONE });
    for (const now of ['2026-10-25T01:30:00Z', '2026-10-25T12:00:00Z']) {
      const run = await runAgreementReport(deps(other), scheduledRunKey(schedule, new Date(now)));
      expect(run).toMatchObject({ status: 'exists', runKey: 'scheduled:2026-10-25T00:30Z' });
    }
    expect(await base.store.db.$count(agreementReports)).toBe(1);
  });
});
