import { afterAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../../support/cli-in-process.js';
import { tempFiles } from '../../support/compose.js';
import { migratedStore } from '../../support/migrated-store.js';
import { PROCESS_TEST_MS, runCli } from '../run-cli.js';
import { post, repliesTo, startFakeConnector, teamsActivity } from './teams-harness.js';

// `candor serve` as a child process, each on an empty migrated store of its own (a copy of the run's template).
const dirs = tempFiles({}, 'candor-teams-serve-');
afterAll(() => dirs.cleanup());
let stores = 0;
const base = async () => ({ CANDOR_DATA_DIR: await migratedStore(dirs.path(`data-${++stores}`)), PORT: '0', LOG_LEVEL: 'warn' });

/** The JSON log lines among what a process wrote on stderr. */
const logLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('candor serve with Teams settings', () => {
  it(
    'in anonymous development mode: says so in the channel list and warns at start',
    async () => {
      const connector = await startFakeConnector();
      const run = runCli(['serve'], { ...(await base()), CANDOR_TEAMS_ALLOW_ANONYMOUS: 'true' });
      try {
        const url = await run.serving();
        expect(run.stderr()).toContain('channels: http, teams (/api/messages, ANONYMOUS: development only))');
        expect(logLines(run.stderr())).toContainEqual(
          expect.objectContaining({ level: 'warn', message: expect.stringMatching(/^teams channel runs WITHOUT authentication/) }),
        );
        // Served for real: no KB yet, so the reply says that.
        const { activity, id, conversationId } = teamsActivity(connector.url, { text: 'What does MediShield Life cover?' });
        expect((await post(`${url}/api/messages`, activity)).status).toBe(200);
        const [reply] = await repliesTo({ connector }, conversationId, id, 1, 30_000);
        expect(reply!.body.text).toBe("I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.");
      } finally {
        run.child.kill('SIGTERM');
        await connector.close();
      }
      expect(await run.exited).toBe(0);
    },
    PROCESS_TEST_MS,
  );

  it(
    'with an app id: authenticated, no warning, secrets never printed',
    async () => {
      const run = runCli(['serve'], {
        ...(await base()),
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
    },
    PROCESS_TEST_MS,
  );

  // A setting refused before anything opens: in this process, through the bin's entry point.
  it('refuses a single-tenant bot without its tenant id, naming the variable', async () => {
    const run = await candorInProcess(['serve'], {
      CANDOR_DATA_DIR: dirs.path('never-opened'),
      PORT: '0',
      MICROSOFT_APP_ID: 'app',
      MICROSOFT_APP_PASSWORD: 'super-secret-client-secret',
      MICROSOFT_APP_TYPE: 'SingleTenant',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "MICROSOFT_APP_TENANT_ID: not set, but MICROSOFT_APP_TYPE=SingleTenant needs the bot's tenant; for example MICROSOFT_APP_TENANT_ID=",
    );
    expect(run.stderr).not.toContain('super-secret-client-secret');
  });
});
