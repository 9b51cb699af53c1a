import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeServer, waitFor, type FakeServer } from '../fake-http.js';
import { runCli } from '../run-cli.js';
import { BOT_TOKEN, BOT_USER, sendSigned, SIGNING_SECRET, slackEvent, startFakeSlack } from './slack-harness.js';

// `candor serve` as a person runs it: a child process, settings from the environment only.
let good: FakeServer;
let rejecting: FakeServer;

beforeAll(async () => {
  good = await startFakeSlack();
  rejecting = await startFakeServer((call) => ({
    body: { ok: false, error: call.path === '/api/auth.test' ? 'invalid_auth' : 'not_authed' },
  }));
});

afterAll(async () => {
  await good?.close();
  await rejecting?.close();
});

const base = { CANDOR_DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'warn' };

describe('candor serve with Slack settings', () => {
  it('exits non-zero with a message a person can act on when Slack rejects the bot token', async () => {
    const run = runCli(['serve'], {
      ...base,
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
  }, 30_000);

  it('refuses to start with a bot token but neither a signing secret nor an app token, naming the variable', async () => {
    const run = runCli(['serve'], { ...base, SLACK_BOT_TOKEN: BOT_TOKEN });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('SLACK_SIGNING_SECRET: missing (needed for HTTP events; or set SLACK_APP_TOKEN for Socket Mode)');
    expect(run.stderr()).not.toContain(BOT_TOKEN);
  }, 30_000);

  it('says which channels are on, answers a signed event on /slack/events, and stops on SIGTERM', async () => {
    const run = runCli(['serve'], {
      ...base,
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
      }, 10_000);
      expect(post!.body.thread_ts).toBe(ev.ts);
      expect(post!.body.text).toBe("I can't answer yet: no knowledge base has been loaded. Please tell the people who run me.");
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
    expect(run.stderr()).not.toContain(BOT_TOKEN);
  }, 40_000);

  it('says only http when no chat channel is configured', async () => {
    const run = runCli(['serve'], base);
    try {
      await run.serving();
      expect(run.stderr()).toMatch(/channels: http\)/);
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
  }, 30_000);
});
