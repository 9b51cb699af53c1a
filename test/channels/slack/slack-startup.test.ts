import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../../support/cli-in-process.js';
import { tempFiles } from '../../support/compose.js';
import { migratedStore } from '../../support/migrated-store.js';
import { startFakeServer, waitFor, type FakeServer } from '../fake-http.js';
import { PROCESS_TEST_MS, runCli } from '../run-cli.js';
import { BOT_TOKEN, BOT_USER, sendSigned, SIGNING_SECRET, slackEvent, startFakeSlack } from './slack-harness.js';

// `candor serve` as a person runs it: a child process, settings from the environment only, on an empty
// migrated store of its own (what `candor migrate` leaves; a copy of the run's template).
let good: FakeServer;
let rejecting: FakeServer;
const dirs = tempFiles({}, 'candor-slack-startup-');
let stores = 0;
const base = async () => ({ CANDOR_DATA_DIR: await migratedStore(dirs.path(`data-${++stores}`)), PORT: '0', LOG_LEVEL: 'warn' });

beforeAll(async () => {
  good = await startFakeSlack();
  rejecting = await startFakeServer((call) => ({
    body: { ok: false, error: call.path === '/api/auth.test' ? 'invalid_auth' : 'not_authed' },
  }));
});

afterAll(async () => {
  await good?.close();
  await rejecting?.close();
  dirs.cleanup();
});

describe('candor serve with Slack settings', () => {
  it(
    'exits non-zero with a message a person can act on when Slack rejects the bot token',
    async () => {
      const run = runCli(['serve'], {
        ...(await base()),
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: `${rejecting.url}/api/`,
      });
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(
        'candor: Slack rejected SLACK_BOT_TOKEN (invalid_auth). Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions of your Slack app',
      );
      expect(run.stderr()).not.toContain(BOT_TOKEN);
      expect(run.stderr()).not.toContain(SIGNING_SECRET);
      expect(rejecting.callsTo('/api/auth.test')).toHaveLength(1);
    },
    PROCESS_TEST_MS,
  );

  // A setting refused before anything opens: in this process, through the bin's entry point.
  it('refuses to start with a bot token but neither a signing secret nor an app token, naming the variable', async () => {
    const run = await candorInProcess(['serve'], { CANDOR_DATA_DIR: dirs.path('never-opened'), PORT: '0', SLACK_BOT_TOKEN: BOT_TOKEN });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "SLACK_SIGNING_SECRET: not set, but Slack's HTTP events need it (Basic Information) unless SLACK_APP_TOKEN is set for Socket Mode; " +
        'for example SLACK_SIGNING_SECRET=',
    );
    expect(run.stderr).not.toContain(BOT_TOKEN);
  });

  it(
    'says which channels are on, answers a signed event on /slack/events, and stops on SIGTERM',
    async () => {
      const run = runCli(['serve'], {
        ...(await base()),
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: `${good.url}/api/`,
      });
      try {
        const url = await run.serving();
        expect(run.stderr()).toMatch(
          /Candor is serving on http:\/\/127\.0\.0\.1:\d+ \(store: pglite, channels: http, slack \(\/slack\/events\)\)/,
        );
        // No KB was ingested: the person hears that, in the thread.
        const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel: 'C0CLI' });
        expect((await sendSigned(`${url}/slack/events`, ev.body)).status).toBe(200);
        const [post] = await waitFor(() => {
          const posts = good.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === 'C0CLI');
          return posts.length > 0 && posts;
        }, 30_000);
        expect(post!.body.thread_ts).toBe(ev.ts);
        expect(post!.body.text).toBe("I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.");
      } finally {
        run.child.kill('SIGTERM');
      }
      expect(await run.exited).toBe(0);
      expect(run.stderr()).not.toContain(BOT_TOKEN);
    },
    PROCESS_TEST_MS,
  );

  it(
    'says only http when no chat channel is configured',
    async () => {
      const run = runCli(['serve'], await base());
      try {
        await run.serving();
        expect(run.stderr()).toMatch(/channels: http\)/);
      } finally {
        run.child.kill('SIGTERM');
      }
      expect(await run.exited).toBe(0);
    },
    PROCESS_TEST_MS,
  );
});
