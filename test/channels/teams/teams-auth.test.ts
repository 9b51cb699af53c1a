import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { post, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// With MICROSOFT_APP_ID set, CloudAdapter checks the Bot Framework JWT on every request.
let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  rig = await startTeamsRig({
    env: {
      MICROSOFT_APP_ID: '00000000-0000-0000-0000-00000000c4d0',
      MICROSOFT_APP_PASSWORD: 'test-client-secret',
      CANDOR_TEAMS_ALLOW_ANONYMOUS: 'false',
    },
    telemetry: false,
  });
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

/** A JWT-shaped token signed with a key no Bot Framework endpoint publishes. */
function forgedJwt(): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const header = enc({ alg: 'HS256', typ: 'JWT' });
  const now = Math.floor(Date.now() / 1000);
  const payload = enc({
    iss: 'https://api.botframework.com',
    aud: '00000000-0000-0000-0000-00000000c4d0',
    exp: now + 600,
    nbf: now - 60,
    serviceurl: 'http://127.0.0.1/',
  });
  return `${header}.${payload}.${createHmac('sha256', 'forged').update(`${header}.${payload}`).digest('base64url')}`;
}

describe('Teams with MICROSOFT_APP_ID set', () => {
  it('is not anonymous and logs no anonymous warning', () => {
    expect(rig.channel.anonymous).toBe(false);
    expect(rig.logs.some((l) => l.message.includes('WITHOUT authentication'))).toBe(false);
  });

  it.each([
    ['no Authorization header', {}],
    ['a token that is not a JWT', { authorization: 'Bearer not-a-token' }],
  ])('rejects an activity with %s: 401, no reply, no interaction', async (_name, headers) => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'What does MediShield Life cover?' });
    const res = await post(rig.messagesUrl, activity, headers);
    expect(res.status).toBe(401);
    expect(rig.connector.calls).toEqual([]);
    expect(await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`)).toEqual([]);
  });

  // A well-formed token makes botbuilder fetch Bot Framework's signing keys from
  // login.botframework.com: offline (as here) that fails, and the request gets 503 (the
  // token could not be checked: try again); online the signature check fails and it gets
  // 401. Either way nothing is answered.
  it('never answers an activity with a forged JWT', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'What does MediShield Life cover?' });
    const res = await post(rig.messagesUrl, activity, { authorization: `Bearer ${forgedJwt()}` });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(rig.connector.calls).toEqual([]);
    expect(await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`)).toEqual([]);
  });

  it.each([
    ['{}', {}],
    [
      'no type',
      { serviceUrl: 'http://127.0.0.1:9/', channelId: 'msteams', conversation: { id: 'c' }, from: { id: 'u' }, recipient: { id: 'b' } },
    ],
    ['a type that is not a string', { type: 7 }],
    ['an array', [{ type: 'message' }]],
    ['null', null],
    ['text that is not a string', { type: 'message', text: { a: 1 } }],
  ])('answers a malformed activity (%s) with 400 before checking any token', async (_name, body) => {
    const before = rig.logs.length;
    const res = await post(rig.messagesUrl, body, { authorization: `Bearer ${forgedJwt()}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('input_invalid');
    // No authentication was attempted (it would have logged that the token could not be checked).
    // The server's access line for the request ('request', written when the response closes) aside, nothing.
    expect(rig.logs.slice(before).filter((l) => l.message !== 'request')).toEqual([]);
    expect(rig.connector.calls).toEqual([]);
  });
});
