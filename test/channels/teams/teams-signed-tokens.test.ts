import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { channelToken, openIdResponse, signingKey, type ChannelTokenClaims } from '../../../scripts/fuzz/bot-framework-tokens.js';
import { createChatServices } from '../../../src/app/chat-services.js';
import { askerFeedback } from '../../../src/store/schema.js';
import { startFakeServer, waitFor, type FakeServer } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { post, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// The channel's signing keys come from a local OpenID endpoint (MICROSOFT_OPENID_METADATA_URL), so
// botbuilder checks real RS256 tokens end to end, offline.
const APP_ID = '00000000-0000-0000-0000-00000000c4d1';
const key = signingKey('candor-test-key');
const otherKey = signingKey('another-key');
let openId: FakeServer;
let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  openId = await startFakeServer((call) => {
    const body = openIdResponse(openId.url, call.path, [key]);
    return body && { body };
  });
  rig = await startTeamsRig({
    env: {
      MICROSOFT_APP_ID: APP_ID,
      MICROSOFT_APP_PASSWORD: 'test-client-secret',
      CANDOR_TEAMS_ALLOW_ANONYMOUS: 'false',
      MICROSOFT_OPENID_METADATA_URL: `${openId.url}/v1/.well-known/openidconfiguration`,
    },
    telemetry: false,
  });
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  await openId?.close();
  kb?.cleanup();
});

afterEach(() => vi.restoreAllMocks());

const now = () => Math.floor(Date.now() / 1000);

function signedActivity(claims: Partial<ChannelTokenClaims> = {}, signer = key) {
  const sent = teamsActivity(rig.connector.url, { text: 'What does MediShield Life cover?' });
  const token = channelToken(signer, { aud: APP_ID, serviceUrl: String(sent.activity.serviceUrl), now: now(), ...claims });
  return { ...sent, authorization: `Bearer ${token}` };
}

describe('Teams with signed Bot Framework tokens (MICROSOFT_OPENID_METADATA_URL)', () => {
  it.each([
    ['signed by a key the endpoint does not publish', () => signedActivity({}, otherKey)],
    ['signed by another key under the published kid', () => signedActivity({}, { ...otherKey, kid: key.kid })],
    ['expired', () => signedActivity({ now: now() - 7200, ttlSeconds: 600 })],
    ['for another audience', () => signedActivity({ aud: '00000000-0000-0000-0000-0000000000ff' })],
    ['for another serviceUrl', () => signedActivity({ serviceUrl: 'https://smba.trafficmanager.net/amer/' })],
    ['from another issuer', () => signedActivity({ iss: 'https://evil.example/' })],
    [
      'for an activity of another channel (the key is endorsed for msteams only)',
      () => {
        const sent = signedActivity();
        return { ...sent, activity: { ...sent.activity, channelId: 'webchat' } };
      },
    ],
    [
      'whose payload is not JSON',
      () => {
        const sent = signedActivity();
        const [header, , signature] = sent.authorization.split('.');
        return { ...sent, authorization: `${header}.${Buffer.from('not json').toString('base64url')}.${signature}` };
      },
    ],
  ])('refuses a token %s: 401, one log line, no stack, nothing stored', async (_name, make) => {
    const stderr = vi.spyOn(console, 'error');
    const { activity, id, conversationId, authorization } = make();
    const before = rig.logs.length;
    const res = await post(rig.messagesUrl, activity, { authorization });
    expect(res.status).toBe(401);
    // Besides the server's access line for the request ('request'), one line says why.
    const lines = rig.logs.slice(before).filter((l) => l.message !== 'request');
    expect(lines.map((l) => [l.level, l.message])).toEqual([['warn', 'teams: request not authenticated']]);
    // botbuilder itself may print a line for a bad signature, but never an error with its stack.
    expect(stderr.mock.calls.flat().filter((a) => a instanceof Error)).toEqual([]);
    expect(await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`)).toEqual([]);
  });
  it('refuses a card press (👍) without a valid token: 401, no feedback stored', async () => {
    const decision = await rig.app.ask({ question: 'What does MediShield Life cover?', channel: 'http' });
    const value = createChatServices(rig.app).experts.interactionAction(decision.interactionId!);
    const { activity } = teamsActivity(rig.connector.url, {
      mention: false,
      extra: { replyToId: 'reply-1', value: { candor: 'feedback', value, kind: 'helpful' } },
    });
    const forged = channelToken(otherKey, { aud: APP_ID, serviceUrl: String(activity.serviceUrl), now: now() });
    for (const headers of [{}, { authorization: `Bearer ${forged}` }] as Record<string, string>[])
      expect((await post(rig.messagesUrl, activity, headers)).status).toBe(401);
    expect(await rig.app.store.db.select().from(askerFeedback)).toEqual([]);
  });
  // Last: the answer's delivery then fails in the worker (no app token offline), and logs that.
  it('takes a valid channel token: 200, the question stored and decided', async () => {
    const { activity, id, conversationId, authorization } = signedActivity();
    const res = await post(rig.messagesUrl, activity, { authorization });
    expect(res.status).toBe(200);
    expect(openId.callsTo('/v1/.well-known/keys').length).toBeGreaterThan(0);
    // Replies need an app token from login.microsoftonline.com (MSAL, https only), which this test cannot fake:
    // the decision is recorded in the interaction row before delivery.
    const row = await waitFor(
      async () => (await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`)).find((r) => r.decision !== null),
      10_000,
      'the decision',
    );
    expect(row).toMatchObject({ channel: 'teams', decision: 'answer', question: 'What does MediShield Life cover?' });
  });
});
