import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { buildApp, type App } from '../../src/main.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global meter provider can be registered once per process.
describe('GET /metrics', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let app: App;
  let server: RunningServer;
  let scraped = '';

  beforeAll(async () => {
    app = await buildApp(testConfig({ CANDOR_KB: 'handbook' }));
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    server = await startHttpServer(
      [apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, healthy: async () => true }), metricsRoute(app.metrics!)],
      { host: '127.0.0.1', port: 0, log: app.log },
    );
    const ask = (question: string) =>
      fetch(`${server.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      });
    await ask('How many days of annual leave do full-time staff receive?');
    await ask('What does ADR-0050 say about parking?');
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    scraped = await response.text();
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  it('counts asks by decision, reason and channel, and histograms their latency', () => {
    expect(scraped).toMatch(/^candor_asks_total\{[^}]*decision="answer"[^}]*reason="none"[^}]*channel="http"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^candor_asks_total\{[^}]*decision="abstain"[^}]*reason="unknown_entity"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^candor_ask_duration_bucket\{[^}]*le="25"[^}]*\} \d+$/m);
    expect(scraped).not.toContain('annual leave'); // no user text in metrics
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
    const names = new Set(queries.flatMap((q) => [...q.matchAll(/\b(candor_[a-z0-9_]+|gen_ai_[a-z0-9_]+)\b/g)].map((m) => m[1] as string)));
    // Metrics that only appear once something happens (a model call, a report) are declared by their code, not scraped here.
    const lazy = [...names].filter((n) => n.startsWith('gen_ai_') || n.startsWith('candor_judge_') || n.startsWith('candor_llm_'));
    for (const name of [...names].filter((n) => !lazy.includes(n))) expect(exposed, `${name} is queried but not exposed`).toContain(name);
  });
});
