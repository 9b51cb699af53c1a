import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { sourceRunnerDeps } from '../../src/app/source-sync.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { addSource } from '../../src/kb/sources/source-records.js';
import { syncSourcesNow } from '../../src/kb/sources/source-runner.js';
import type { Log } from '../../src/kernel/log.js';
import { startSourceMetrics } from '../../src/telemetry/source-metrics.js';
import { tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global meter provider can be registered once per process.
describe('source freshness on GET /metrics', () => {
  const files = tempFiles({ 'unused.txt': '' }, 'candor-source-metrics-');
  const log: Log = () => undefined;
  let app: Candor;
  let server: RunningServer;
  let gauges: { stop(): void } | undefined;
  const scrape = async () => (await fetch(`${server.url}/metrics`)).text();
  const started = Date.now() / 1000;
  /** How far the metrics' clock is ahead of the real one. */
  let ahead = 0;

  beforeAll(async () => {
    mkdirSync(files.path('policies'));
    writeFileSync(files.path('policies/leave.md'), '# Leave\n\nStaff get 25 days of annual leave.\n');
    writeFileSync(files.path('policies/gym.md'), '# Gym\n\nThe gym opens at 6 am.\n');
    app = await buildCandor(testConfig({ CANDOR_SOURCES_STALE_DAYS: '1' }), { log });
    for (const [source, every] of [
      [files.path('policies'), 3600],
      [files.path('missing'), 86_400],
    ] as const)
      await addSource(
        app.store.db,
        { kb: 'handbook', source, kind: 'folder', everySeconds: every, include: null, maxPages: 100 },
        new Date(),
      );
    await syncSourcesNow(sourceRunnerDeps(app), { kb: 'handbook' });
    gauges = startSourceMetrics({
      db: app.store.db,
      log,
      staleDays: app.config.sources.staleDays,
      now: () => new Date(Date.now() + ahead),
    });
    server = await startHttpServer([metricsRoute(app.metrics!)], { host: '127.0.0.1', port: 0, log });
  }, 120_000);
  afterAll(async () => {
    gauges?.stop();
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  it('counts syncs by kb and outcome, and gauges each source’s last success and period', async () => {
    const text = await scrape();
    expect(text).toMatch(/^candor_source_syncs_total\{[^}]*kb="handbook"[^}]*outcome="changed"[^}]*\} 1$/m);
    expect(text).toMatch(/^candor_source_syncs_total\{[^}]*kb="handbook"[^}]*outcome="failed"[^}]*\} 1$/m);
    const lastSuccess = (source: string) =>
      Number(
        new RegExp(`^candor_source_last_success_timestamp_seconds\\{[^}]*source="${source}"[^}]*\\} ([\\d.e+]+)$`, 'm').exec(text)?.[1],
      );
    // The failing source has never synced: its series holds when it was added, so the alert can fire for it too.
    expect(lastSuccess(files.path('policies'))).toBeGreaterThanOrEqual(Math.floor(started));
    expect(lastSuccess(files.path('missing'))).toBeGreaterThanOrEqual(Math.floor(started));
    expect(text).toMatch(new RegExp(`^candor_source_period_seconds\\{[^}]*source="${files.path('policies')}"[^}]*\\} 3600$`, 'm'));
  });

  it('gauges the KB’s synced documents by state, stale ones apart', async () => {
    const count = (text: string, state: string) =>
      Number(new RegExp(`^candor_source_documents\\{[^}]*kb="handbook"[^}]*state="${state}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1]);
    const text = await scrape();
    expect([count(text, 'active') + count(text, 'stale'), count(text, 'failed'), count(text, 'gone')]).toEqual([2, 0, 0]);
    expect(count(text, 'stale')).toBe(0);
    // Two days on without a sync (CANDOR_SOURCES_STALE_DAYS=1), the documents read as stale (past the 10 s scrape cache).
    ahead = 2 * 86_400_000;
    await expect.poll(async () => count(await scrape(), 'stale'), { timeout: 60_000, interval: 1_000 }).toBe(2);
    expect(count(await scrape(), 'active')).toBe(0);
  });
});
