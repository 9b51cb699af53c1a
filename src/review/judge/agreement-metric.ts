import { metrics } from '@opentelemetry/api';

import type { AgreementReport } from '../../core/review/agreement-report.js';
import { METRIC, SCOPE } from '../../telemetry/attributes.js';

/**
 * `candor.judge.agreement`: Cohen's kappa of each judge version against the
 * human majority, per task, from the latest report (a gauge read at export).
 */
export function createAgreementMetric(): { update(report: AgreementReport): void } {
  let points: { value: number; attributes: { task: string; judge: string } }[] = [];
  metrics
    .getMeter(SCOPE.candor)
    .createObservableGauge(METRIC.judgeAgreement, {
      unit: '1',
      description: "Judge-human Cohen's kappa from the latest agreement report, by task and judge version",
    })
    .addCallback((result) => {
      for (const p of points) result.observe(p.value, p.attributes);
    });
  return {
    update(report) {
      points = report.tasks.flatMap((t) =>
        t.judges.flatMap((j) => (j.cohensKappa === null ? [] : [{ value: j.cohensKappa, attributes: { task: t.task, judge: j.judge } }])),
      );
    },
  };
}
