import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tempFiles } from '../../support/compose.js';
import { migratedStore } from '../../support/migrated-store.js';
import { runCli, type CliRun } from '../run-cli.js';

const API_TOKEN = 'api-token-0123456789abcdef';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/**
 * /api/ask and /metrics share a listener with the public Slack and Teams
 * endpoints: with CANDOR_API_TOKEN and CANDOR_METRICS_TOKEN set, each needs its
 * bearer token (401 without, 200 with); /healthz stays open for probes.
 */
describe('access tokens on a real candor serve', () => {
  const dirs = tempFiles({}, 'candor-tokens-');
  let server: CliRun;
  let url: string;
  beforeAll(async () => {
    // `start` ingests the example KB into the empty migrated store (as on a first run), so an authorised ask gets a real answer.
    server = runCli(['start'], {
      CANDOR_DATA_DIR: await migratedStore(dirs.path('data')),
      PORT: '0',
      LOG_LEVEL: 'warn',
      CANDOR_API_TOKEN: API_TOKEN,
      CANDOR_METRICS_TOKEN: METRICS_TOKEN,
    });
    url = await server.serving(90_000);
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    dirs.cleanup();
  });

  const ask = (headers: Record<string, string> = {}) =>
    fetch(`${url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ question: 'What is the penalty for drink driving?' }),
    });

  it('POST /api/ask: 401 without the token or with a wrong one, an answer with it', async () => {
    const none = await ask();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="candor api"');
    expect((await ask({ authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await ask({ authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(401);
    const ok = await ask({ authorization: `Bearer ${API_TOKEN}` });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ decision: 'answer', answer: expect.stringContaining('$1,000 and $5,000') });
  });

  it('GET /metrics: 401 without the token, the Prometheus text with it', async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${API_TOKEN}` } })).status).toBe(401);
    const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('candor_asks');
  });

  it('GET /healthz needs no token, and no token is ever printed', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(server.stderr()).not.toContain(API_TOKEN);
    expect(server.stderr()).not.toContain(METRICS_TOKEN);
  });
});
