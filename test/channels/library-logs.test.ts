import { afterAll, describe, expect, it } from 'vitest';

import { channelToken, openIdResponse, signingKey } from '../../scripts/fuzz/bot-framework-tokens.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';
import { startFakeServer, waitFor, type FakeServer } from './fake-http.js';
import { PROCESS_TEST_MS, runCli, type CliRun } from './run-cli.js';
import { BOT_TOKEN, sendSigned, SIGNING_SECRET, startFakeSlack } from './slack/slack-harness.js';
import { post, teamsActivity } from './teams/teams-harness.js';

const APP_ID = '00000000-0000-0000-0000-00000000c4d2';
/** A payload value no log line may echo beyond a short prefix. */
const MARKER = `MARKER${'0123456789'.repeat(300)}`;
/** What `candor serve` prints on start besides its log lines (the banner a person reads). */
const BANNER = /^(Candor is serving on |Ask: curl |Console: )/;

/**
 * Issue 38: one JSON line per event. Bolt's errors quote whole signed payload values ("Cannot use 'in' operator …
 * in <several KB>"), and the Bot Framework prints with console.error (stacks, public keys over several lines).
 * The real server is sent a malformed Slack payload and Teams activities it refuses; every line it writes is one
 * JSON object, and none echoes more than a short prefix of a payload value.
 */
describe('what the Slack and Teams libraries log, in the server log', () => {
  const dir = tempFiles({}, 'candor-library-logs-');
  let server: CliRun | undefined;
  let slack: FakeServer | undefined;
  let openId: FakeServer | undefined;
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await slack?.close();
    await openId?.close();
    dir.cleanup();
  });

  it(
    'is one JSON object a line, with no payload value or key beyond a short prefix',
    async () => {
      const key = signingKey('candor-log-key');
      const otherKey = signingKey('another-key');
      const server0 = await startFakeServer((call) => {
        const body = openIdResponse(server0.url, call.path, [key]);
        return body && { body };
      });
      openId = server0;
      slack = await startFakeSlack();
      server = runCli(['serve'], {
        CANDOR_DATA_DIR: await migratedStore(dir.path('data')),
        PORT: '0',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: `${slack.url}/api/`,
        MICROSOFT_APP_ID: APP_ID,
        MICROSOFT_APP_PASSWORD: 'test-client-secret',
        MICROSOFT_OPENID_METADATA_URL: `${openId.url}/v1/.well-known/openidconfiguration`,
      });
      const url = await server.serving();

      // Slack: signed, but the event is a string of several KB (Bolt: "Cannot use 'in' operator … in <it>"); and a
      // button press whose fields are that string.
      const event = JSON.stringify({ type: 'event_callback', team_id: 'T0TEAM', event: MARKER, event_id: 'EvLOG1' });
      expect((await sendSigned(`${url}/slack/events`, event)).status).toBeLessThan(500);
      const press = `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', actions: [MARKER], container: MARKER, user: MARKER }))}`;
      expect((await sendSigned(`${url}/slack/events`, press, { contentType: 'application/x-www-form-urlencoded' })).status).toBeLessThan(
        500,
      );

      // Teams: an activity of no known shape, one whose token is signed by another key under the published kid (the
      // library prints the public key it tried), and one whose token has expired (it prints the error with its stack).
      const sent = teamsActivity('http://127.0.0.1:9', { text: MARKER });
      expect((await post(`${url}/api/messages`, { type: MARKER, text: MARKER })).status).toBe(400);
      const now = Math.floor(Date.now() / 1000);
      const serviceUrl = String(sent.activity.serviceUrl);
      const forged = channelToken({ ...otherKey, kid: key.kid }, { aud: APP_ID, serviceUrl, now });
      const expired = channelToken(key, { aud: APP_ID, serviceUrl, now: now - 7200, ttlSeconds: 600 });
      for (const token of [forged, expired]) {
        expect((await post(`${url}/api/messages`, sent.activity, { authorization: `Bearer ${token}` })).status).toBe(401);
      }
      await waitFor(() => server!.stderr().includes('Error finding key for token'), 10_000, "the Bot Framework's key line");

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const lines = `${server.stdout()}${server.stderr()}`.split('\n').filter((line) => line !== '' && !BANNER.test(line));
      const notJson = lines.filter((line) => {
        try {
          const parsed: unknown = JSON.parse(line);
          return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
        } catch {
          return true;
        }
      });
      expect(notJson).toEqual([]);
      const echoes = lines.filter((line) => line.includes(MARKER.slice(0, 40)));
      expect(echoes).toEqual([]);
      expect(lines.filter((line) => /BEGIN (RSA )?PUBLIC KEY[\s\S]*END/.test(line) || line.length > 2_000)).toEqual([]);
      const messages = lines.map((line) => (JSON.parse(line) as { message?: string }).message ?? '');
      // The libraries' lines are there, summarised.
      expect(messages.some((m) => m.startsWith("slack: Bolt could not process the event: Cannot use 'in' operator"))).toBe(true);
      expect(messages.some((m) => m.startsWith('library: Error finding key for token.'))).toBe(true);
      process.stderr.write(`[library logs] ${lines.length} lines, all JSON; longest ${Math.max(...lines.map((l) => l.length))} chars\n`);
    },
    PROCESS_TEST_MS,
  );
});
