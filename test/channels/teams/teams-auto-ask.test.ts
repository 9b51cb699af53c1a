import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { gapRequests } from '../../../src/store/schema.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { cardOf, conversationPath, messagesIn, press, pressValue } from './teams-cards.js';
import { post, repliesTo, replyPath, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// A KB with autoAsk: refusals go to its experts without a press, over real HTTP into the real CloudAdapter.
const EXPERTS_CONVERSATION = '19:auto-experts@thread.tacv2';
const EXPERT = { id: '29:dana', aadObjectId: 'aad-expert-dana', name: 'Dana Expert' };
const ANNA = { id: '29:anna', aadObjectId: 'aad-anna', name: 'Anna' };

let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  rig = await startTeamsRig({
    telemetry: false,
    envFor: (url) => ({
      CANDOR_EXPERTS: JSON.stringify([
        { kb: 'default', teams: `${url}/|${EXPERTS_CONVERSATION}`, people: [`teams:${EXPERT.aadObjectId}`], autoAsk: true },
      ]),
    }),
  });
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

const expertPosts = () => rig.connector.callsTo(conversationPath(EXPERTS_CONVERSATION)).filter((c) => c.method === 'POST');

async function ask(text: string) {
  const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text, extra: { from: ANNA } });
  expect((await post(rig.messagesUrl, activity)).status).toBe(200);
  const [reply] = await repliesTo(rig, conversationId, id, 1, 15_000);
  return { id, conversationId, reply: reply! };
}

describe('autoAsk in Teams', () => {
  it('routes a refusal to the experts once delivered, and an answer not at all', async () => {
    await ask('What does MediShield Life cover?');
    const refused = await ask('Is there a shuttle bus from the train station?');
    expect(String(cardOf(refused.reply).body[0]!.text)).toBe("I don't know.");
    const [posted] = await waitFor(() => expertPosts().length > 0 && expertPosts(), 15_000, 'the experts post');
    expect(JSON.stringify(cardOf(posted!).body)).toContain('Is there a shuttle bus from the train station?');
    expect((await rig.app.store.db.select({ asker: gapRequests.asker }).from(gapRequests)).map((r) => r.asker)).toEqual(['auto']);

    // The expert answers: the asker hears it once, under their question.
    const value = pressValue(cardOf(posted!), 'Answer', { answer: 'Yes: a free shuttle leaves the train station every 15 minutes.' });
    const sent = await press(rig, {
      conversationId: EXPERTS_CONVERSATION,
      cardId: rig.connector.idOf(posted!)!,
      from: EXPERT,
      value,
      channel: true,
    });
    expect(sent.status).toBe(200);
    const told = await waitFor(() => messagesIn(rig, refused.conversationId, 'An expert answered your question')[0], 10_000, 'the notice');
    expect(told.path).toBe(replyPath(refused.conversationId, refused.id));
    expect(messagesIn(rig, refused.conversationId, 'An expert answered your question')).toHaveLength(1);
    expect(expertPosts()).toHaveLength(1);
  });
});
