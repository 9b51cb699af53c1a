import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { waitFor } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { post, repliesTo, replyPath, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  // A delay a quick reply stays under on a loaded machine too, and a slow reply (held 1.5 s) goes well past.
  rig = await startTeamsRig({ channel: { typingDelayMs: 400 }, telemetry: false });
  kb = await ingestFixture(rig.app.store.db);
  // The connector takes 1.5 s to accept replies in conversations whose id says "slow".
  rig.connector.use((call) =>
    call.path.includes('slow') && call.body.type === 'message' ? { delayMs: 1500, body: { id: 'slow-reply' } } : undefined,
  );
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

describe('Teams typing indicator', () => {
  it('sends a typing activity when the reply takes longer than the delay', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, {
      text: 'What does MediShield Life cover?',
      conversationId: 'a:1slow-chat',
    });
    expect((await post(rig.messagesUrl, activity)).status).toBe(200);
    await repliesTo(rig, conversationId, id);
    const calls = await waitFor(
      () => {
        const all = rig.connector.callsTo(replyPath(conversationId, id));
        return all.length >= 2 && all;
      },
      15_000,
      'the reply and a typing activity',
    );
    expect(calls.map((c) => c.body.type).sort()).toEqual(['message', 'typing']);
    const typing = calls.find((c) => c.body.type === 'typing')!;
    const reply = calls.find((c) => c.body.type === 'message')!;
    // The typing activity went out while the reply was still pending: before the connector accepted it (it holds it
    // 1.5 s). On a quiet machine that is after the reply arrived; on a loaded one the answer itself can take longer
    // than the delay, and the typing activity comes first — both are the reply taking longer than the delay.
    expect(typing.at).toBeLessThan(reply.at + 1500);
  });

  it('sends none when the reply is quick', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'What does MediShield Life cover?' });
    await post(rig.messagesUrl, activity);
    await repliesTo(rig, conversationId, id);
    await new Promise((r) => setTimeout(r, 250));
    expect(rig.connector.callsTo(replyPath(conversationId, id)).map((c) => c.body.type)).toEqual(['message']);
  });
});
