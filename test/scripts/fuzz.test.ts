import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loopbackUrl } from '../../scripts/fuzz/attach-server.js';
import { startCandorUnderTest, type ServerHandle } from '../../scripts/fuzz/candor-under-test.js';
import type { FuzzSummary } from '../../scripts/fuzz/fuzz-summary.js';
import { parseResponse, sendRaw } from '../../scripts/fuzz/raw-http.js';
import { MALFORMED_TARGETS } from '../../scripts/fuzz/target-cases.js';

// `npm run fuzz` in short: one `candor serve` started the fuzzer's way (temporary PGlite, a tiny KB, Slack and
// Teams against local fakes), the malformed request targets one raw-socket request each, then a short seeded pass
// of the fuzzer's CLI against it (RSS is not judged here: 600 requests are too few to tell growth from GC).
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the fuzzer itself', () => {
  it('targets 127.0.0.1 only', () => {
    expect(loopbackUrl('http://127.0.0.1:3000').ok).toBe(true);
    for (const url of [
      'http://localhost:3000',
      'http://[::1]:3000',
      'http://10.0.0.1:3000',
      'https://127.0.0.1:3000',
      'http://127.0.0.1',
      'x',
    ]) {
      expect(loopbackUrl(url)).toMatchObject({ ok: false });
    }
  });

  it('reads a response framed by length, by chunks, or left open', () => {
    expect(parseResponse(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 400 Bad\r\nContent-Length: 2\r\n\r\nok'), false)).toMatchObject(
      {
        status: 400,
        complete: true,
      },
    );
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n'), false)).toMatchObject({
      complete: true,
    });
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok'), false)).toMatchObject({ complete: false });
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'), true)).toMatchObject({ complete: true });
  });
});

describe('npm run fuzz against candor serve', () => {
  let server: ServerHandle;

  beforeAll(async () => {
    // Teams anonymous: every activity gets past authentication (not only the validly signed share), so the code
    // behind it is fuzzed more.
    server = await startCandorUnderTest({ teamsAnonymous: true });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('answers each malformed request target with 400, one raw-socket request each', async () => {
    const statuses: Record<string, number | string> = {};
    for (const target of MALFORMED_TARGETS) {
      const bytes = Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`, 'latin1');
      const result = await sendRaw(server.port, bytes, { timeoutMs: 5_000 });
      statuses[target] = result.status ?? result.outcome;
    }
    expect(statuses).toEqual(Object.fromEntries(MALFORMED_TARGETS.map((t) => [t, 400])));
    expect(server.exit()).toBeNull();
  });

  it('a short seeded pass: no exit, no 5xx, no request left hanging', async () => {
    const args = [
      ...['--url', server.url, '--pid', String(server.pid), '--requests', '600', '--seconds', '45', '--seed', '17', '--json'],
      ...['--slack-signing-secret', server.secrets.slackSigningSecret!, '--api-token', server.secrets.apiToken!],
      ...['--console-token', server.secrets.consoleToken!, '--metrics-token', server.secrets.metricsToken!],
      ...['--teams-anonymous', '--rss-bound-mb', '1000'],
    ];
    // Exit code 1 (failures found) still prints the summary.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', ...args], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const summary = JSON.parse(stdout) as FuzzSummary;
    // On failure, the message lists the first request of each failing kind as the fuzzer recorded it.
    const first = [...summary.fiveXX.first, ...summary.hangs.first].map(({ replay: _, ...f }) => f);
    expect(
      { exits: summary.exits, fiveXX: summary.fiveXX.byKind, hangs: summary.hangs.byKind },
      JSON.stringify(first, null, 1).slice(0, 6_000),
    ).toEqual({ exits: [], fiveXX: {}, hangs: {} });
    expect(summary.requests).toBeGreaterThan(100);
    expect(Object.keys(summary.byEndpoint)).toEqual(expect.arrayContaining(['/api/ask', '/slack/events', '/api/messages', 'console']));
    expect(summary.probes.stalls).toBe(0);
  }, 90_000);
});
