import { describe, expect, it } from 'vitest';

import { runCli } from '../run-cli.js';
import { post, repliesTo, startFakeConnector, teamsActivity } from './teams-harness.js';

const base = { CANDOR_DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'warn' };

/** The JSON log lines among what a process wrote on stderr. */
const logLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('candor serve with Teams settings', () => {
  it('in anonymous development mode: says so in the channel list and warns at start', async () => {
    const connector = await startFakeConnector();
    const run = runCli(['serve'], { ...base, CANDOR_TEAMS_ALLOW_ANONYMOUS: 'true' });
    try {
      const url = await run.serving();
      expect(run.stderr()).toContain('channels: http, teams (/api/messages, ANONYMOUS: development only))');
      expect(logLines(run.stderr())).toContainEqual(
        expect.objectContaining({ level: 'warn', message: expect.stringMatching(/^teams channel runs WITHOUT authentication/) }),
      );
      // Served for real: no KB yet, so the reply says that.
      const { activity, id, conversationId } = teamsActivity(connector.url, { text: 'What does MediShield Life cover?' });
      expect((await post(`${url}/api/messages`, activity)).status).toBe(200);
      const [reply] = await repliesTo({ connector }, conversationId, id, 1, 15_000);
      expect(reply!.body.text).toBe("I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.");
    } finally {
      run.child.kill('SIGTERM');
      await connector.close();
    }
    expect(await run.exited).toBe(0);
  }, 40_000);

  it('with an app id: authenticated, no warning, secrets never printed', async () => {
    const run = runCli(['serve'], {
      ...base,
      MICROSOFT_APP_ID: '00000000-0000-0000-0000-00000000c4d0',
      MICROSOFT_APP_PASSWORD: 'super-secret-client-secret',
    });
    try {
      const url = await run.serving();
      expect(run.stderr()).toContain('channels: http, teams (/api/messages))');
      expect(run.stderr()).not.toContain('WITHOUT authentication');
      const { activity } = teamsActivity('http://127.0.0.1:9', { text: 'hi' });
      expect((await post(`${url}/api/messages`, activity)).status).toBe(401);
      // One JSON line says why; botbuilder's stack trace never reaches stderr.
      expect(run.stderr()).toContain('"message":"teams: request not authenticated"');
      expect(run.stderr()).not.toMatch(/^\s+at /m);
      expect((await post(`${url}/api/messages`, { type: 'message', text: 'hi' })).status).toBe(400);
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
    expect(run.stderr()).not.toContain('super-secret-client-secret');
  }, 40_000);

  it('refuses a single-tenant bot without its tenant id, naming the variable', async () => {
    const run = runCli(['serve'], {
      ...base,
      MICROSOFT_APP_ID: 'app',
      MICROSOFT_APP_PASSWORD: 'super-secret-client-secret',
      MICROSOFT_APP_TYPE: 'SingleTenant',
    });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('MICROSOFT_APP_TENANT_ID: missing (required when MICROSOFT_APP_TYPE is SingleTenant)');
    expect(run.stderr()).not.toContain('super-secret-client-secret');
  }, 30_000);
});
