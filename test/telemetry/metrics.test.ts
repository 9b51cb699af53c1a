import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { processErrorHandlers } from '../../src/app/guard-process.js';
import { buildCandor, type Candor } from '../../src/app/main.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global meter provider can be registered once per process.
describe('GET /metrics', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let app: Candor;
  let server: RunningServer;
  let scraped = '';

  beforeAll(async () => {
    app = await buildCandor(
      testConfig({
        CANDOR_KB: 'handbook',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging,service.namespace=support%20bots',
      }),
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    server = await startHttpServer([apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [] }), metricsRoute(app.metrics!)], {
      host: '127.0.0.1',
      port: 0,
      log: app.log,
    });
    const ask = (question: string) =>
      fetch(`${server.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      });
    await ask('How many days of annual leave do full-time staff receive?');
    await ask('What does ADR-0050 say about parking?');
    // What serve's process guard does with a rejection nobody awaited.
    processErrorHandlers({ log: () => undefined, fatal: () => undefined }).onRejection(new Error('lost'));
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    scraped = await response.text();
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  it('counts asks by kb, decision, reason and channel, and histograms their latency', () => {
    expect(scraped).toMatch(/^candor_asks_total\{[^}]*decision="answer"[^}]*reason="none"[^}]*channel="http"[^}]*kb="handbook"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^candor_asks_total\{[^}]*decision="abstain"[^}]*reason="unknown_entity"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^candor_ask_duration_seconds_bucket\{[^}]*kb="handbook"[^}]*le="0.025"[^}]*\} \d+$/m);
    expect(scraped).toMatch(/^candor_process_errors_total\{[^}]*kind="unhandled_rejection"[^}]*\} 1$/m);
    expect(scraped).not.toContain('annual leave'); // no user text in metrics
  });

  it('says each histogram’s unit, and asks are in seconds with sub-second buckets from 1 ms', () => {
    expect(scraped).toMatch(/^# UNIT candor_ask_duration_seconds s$/m);
    expect(scraped).not.toMatch(/^candor_ask_duration_bucket/m);
    expect(scraped).toMatch(/^# UNIT candor_asks_total \{ask\}$/m);
    const bounds = [...scraped.matchAll(/^candor_ask_duration_seconds_bucket\{[^}]*decision="answer"[^}]*le="([^"]+)"/gm)].map((m) => m[1]);
    expect(bounds).toEqual([
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '30',
      '+Inf',
    ]);
    // A lexical ask over eight facts takes milliseconds: counted below one second, in seconds.
    const sum = Number(/^candor_ask_duration_seconds_sum\{[^}]*decision="answer"[^}]*\} ([\d.e+-]+)$/m.exec(scraped)?.[1]);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(1);
  });

  it('exports process and runtime metrics', () => {
    expect(scraped).toMatch(/^process_cpu_time_total\{[^}]*cpu_mode="user"[^}]*\} [\d.e+-]+$/m);
    const rss = Number(/^process_memory_usage(?:\{[^}]*\})? ([\d.e+]+)$/m.exec(scraped)?.[1]);
    expect(rss).toBeGreaterThan(10_000_000);
    expect(scraped).toMatch(/^v8js_memory_heap_used\{[^}]*v8js_heap_space_name="new_space"[^}]*\} \d+/m);
    expect(scraped).toMatch(/^nodejs_eventloop_delay_p99(?:\{[^}]*\})? [\d.e+-]+$/m);
    expect(scraped).toMatch(/^# UNIT process_memory_usage By$/m);
  });

  it('carries OTEL_RESOURCE_ATTRIBUTES and the service identity on target_info', () => {
    const info = /^target_info\{([^}]*)\} 1$/m.exec(scraped)?.[1] ?? '';
    expect(info).toContain('deployment_environment_name="staging"');
    expect(info).toContain('service_namespace="support bots"');
    expect(info).toContain('service_name="candor"');
    expect(info).toMatch(/service_version="\d+\.\d+\.\d+/);
  });

  it('every metric the Grafana dashboard and the alert rules query exists', () => {
    const exposed = new Set([...scraped.matchAll(/^([a-z_:][a-z0-9_:]*)(?:\{| )/gm)].map((m) => m[1] as string));
    const dashboard = JSON.parse(readFileSync(new URL('../../dashboards/candor-grafana.json', import.meta.url), 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const alerts = parse(readFileSync(new URL('../../dashboards/alerts.yaml', import.meta.url), 'utf8')) as {
      groups: { rules: { expr: string }[] }[];
    };
    const queries = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
      ...alerts.groups.flatMap((g) => g.rules.map((r) => r.expr)),
    ];
    expect(queries.length).toBeGreaterThan(5);
    const names = new Set(
      queries.flatMap((q) =>
        [...q.matchAll(/\b(candor_[a-z0-9_]+|gen_ai_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+|v8js_[a-z0-9_]+)\b/g)].map(
          (m) => m[1] as string,
        ),
      ),
    );
    // Metrics that only appear once something happens (a model call, a report) are declared by their code, not scraped here;
    // the KB gaps row's (feedback, experts, gap gauges registered by serve) by test/telemetry/gap-metrics.test.ts, and the
    // store-read and delivery ones (inbox, deliveries, review backlog, labels, cost) by test/telemetry/ops-metrics.test.ts,
    // and the sources' (registered by serve) by test/telemetry/source-metrics.test.ts.
    const lazy = [...names].filter((n) =>
      /^(gen_ai_|candor_(judge|llm|feedback|expert|gaps|inbox|deliveries|review|labels|source)_)/.test(n),
    );
    for (const name of [...names].filter((n) => !lazy.includes(n))) expect(exposed, `${name} is queried but not exposed`).toContain(name);
  });
});
