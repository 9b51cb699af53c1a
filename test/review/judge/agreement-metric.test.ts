import { AggregationTemporality, InMemoryMetricExporter, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../../src/app/main.js';
import { buildAgreementReport } from '../../../src/core/review/agreement-report.js';
import { createAgreementMetric } from '../../../src/review/judge/agreement-metric.js';
import { testConfig } from '../../support/compose.js';

// One file of its own: the OpenTelemetry global meter provider can be registered once per process.
describe('candor.judge.agreement', () => {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  let app: Candor;
  beforeAll(async () => {
    app = await buildCandor(testConfig(), { metricReaders: [reader] });
  });
  afterAll(async () => app?.close());

  it("exports each judge's kappa from the latest report, by task and judge version", async () => {
    const metric = createAgreementMetric();
    const rows = (annotator: string, values: string[]) =>
      values.map((value, i) => ({ sampleId: i + 1, task: 'abstention', annotator, value }));
    metric.update(
      buildAgreementReport([
        ...rows('slack:U1', ['correct', 'correct', 'incorrect', 'incorrect']),
        ...rows('llm:abst@2', ['correct', 'correct', 'incorrect', 'correct']),
      ]),
    );
    const { resourceMetrics } = await reader.collect();
    const points = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'candor.judge.agreement')
      .flatMap((m) => m.dataPoints as Array<{ value: unknown; attributes: unknown }>);
    // po = 3/4; marginals 2/2 and 3/1: pe = 0.5·0.75 + 0.5·0.25 = 0.5; kappa = 0.25 / 0.5 = 0.5.
    expect(points).toEqual([expect.objectContaining({ value: 0.5, attributes: { task: 'abstention', judge: 'llm:abst@2' } })]);
  });
});
