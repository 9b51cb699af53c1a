import { desc, eq } from 'drizzle-orm';

import type { RuleJudge } from '../../core/judge/rule-judges.js';
import type { AgreementReport, StoredAgreementReport } from '../../core/review/agreement-report.js';
import type { Log } from '../../kernel/log.js';
import type { CronSchedule } from '../../schedule/cron-schedule.js';
import type { Store } from '../../store/open-store.js';
import { agreementReports } from '../../store/schema.js';
import { currentLabels, type CurrentLabel } from '../label-store.js';
import { runJudge, type Judge, type JudgeRunResult } from './judge-run.js';
import { listJudgeSpecs } from './judge-specs.js';
import { runRuleJudge } from './rule-judge-run.js';

export interface AgreementJobDeps {
  readonly store: Pick<Store, 'db' | 'withTryLock'>;
  /** Null without a judge model: the report covers the labels already stored. */
  readonly judge: Judge | null;
  /** Judges that need no model (e.g. `rule:abstention@1`); they run on every report. */
  readonly ruleJudges?: readonly RuleJudge[];
  /** The pure report builder (src/core/review). */
  readonly buildReport: (labels: readonly CurrentLabel[]) => AgreementReport;
  readonly log?: Log;
}

export type AgreementRun =
  | {
      readonly status: 'created';
      readonly runKey: string;
      readonly report: StoredAgreementReport;
      readonly judgeRuns: readonly JudgeRunResult[];
    }
  | { readonly status: 'exists'; readonly runKey: string; readonly report: StoredAgreementReport }
  | { readonly status: 'busy'; readonly runKey: string };

const LOCK = 'candor.agreement-report';

/**
 * One agreement report for `runKey`: runs the rule judges and the latest
 * version of every LLM judge on newly labelled items, then computes and stores the report in one statement.
 * Exactly one caller across replicas does the work (an advisory lock); a run
 * key already reported is not reported again; a crash before the insert
 * leaves no report at all (judge labels already stored are kept and reused).
 */
export async function runAgreementReport(deps: AgreementJobDeps, runKey: string): Promise<AgreementRun> {
  const { db } = deps.store;
  const locked = await deps.store.withTryLock(LOCK, async (): Promise<AgreementRun> => {
    const existing = await findReport(deps.store, runKey);
    if (existing) return { status: 'exists', runKey, report: existing };
    const judgeRuns: JudgeRunResult[] = [];
    for (const rule of deps.ruleJudges ?? []) judgeRuns.push(await runRuleJudge(db, rule));
    if (deps.judge) {
      for (const spec of await listJudgeSpecs(db, { latestOnly: true })) {
        const run = await runJudge(db, spec, deps.judge);
        judgeRuns.push(run);
        if (run.failed.length > 0)
          deps.log?.('warn', 'judge could not label some items', {
            spec: run.spec,
            failed: run.failed.length,
            first: run.failed[0]?.error,
          });
      }
    }
    const report: StoredAgreementReport = {
      runKey,
      createdAt: new Date().toISOString(),
      judgeRuns,
      ...deps.buildReport(await currentLabels(db)),
    };
    const inserted = await db
      .insert(agreementReports)
      .values({ runKey, report })
      .onConflictDoNothing()
      .returning({ id: agreementReports.id });
    if (inserted.length === 0) return { status: 'exists', runKey, report: (await findReport(deps.store, runKey)) ?? report };
    return { status: 'created', runKey, report, judgeRuns };
  });
  return locked.ran ? locked.value : { status: 'busy', runKey };
}

/** The stored report for a run key, or the newest one when no key is given. */
export async function findReport(store: Pick<Store, 'db'>, runKey?: string): Promise<StoredAgreementReport | null> {
  const query = store.db.select({ report: agreementReports.report }).from(agreementReports);
  const [row] = runKey ? await query.where(eq(agreementReports.runKey, runKey)) : await query.orderBy(desc(agreementReports.id)).limit(1);
  return row?.report ?? null;
}

/**
 * The run key of the schedule slot `now` falls in, as a UTC instant (e.g. "scheduled:2026-11-23T05:00Z" for
 * 06:00 Europe/Amsterdam): replicas with the same schedule and time zone compute the same key for a slot.
 */
export function scheduledRunKey(schedule: CronSchedule, now: Date): string {
  return `scheduled:${schedule.previous(now).toISOString().slice(0, 16)}Z`;
}
