import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listFacts } from '../../../src/kb/expert-facts.js';
import { gaps } from '../../../src/store/schema.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { actionTitles, cardOf, conversationPath, messagesIn, press, pressValue, type Presser, type SentCard } from './teams-cards.js';
import { post, repliesTo, replyPath, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// "Ask an expert" and experts' answers in Teams over real HTTP: the real CloudAdapter, a fake connector.
const EXPERTS_CONVERSATION = '19:experts@thread.tacv2';
const EXPERT = { id: '29:dana', aadObjectId: 'aad-expert-dana', name: 'Dana Expert' };
const STRANGER = { id: '29:sam', aadObjectId: 'aad-stranger-sam', name: 'Sam' };
const ANNA = { id: '29:anna', aadObjectId: 'aad-anna', name: 'Anna' };
const BEN = { id: '29:ben', aadObjectId: 'aad-ben', name: 'Ben' };
const CARA = { id: '29:cara', aadObjectId: 'aad-cara', name: 'Cara' };
const QUESTION = 'How many days of annual leave do new employees get?';
const ANSWER = 'New employees get 14 days of annual leave in their first year.';
const TOLD = 'An expert answered your question';

let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  rig = await startTeamsRig({
    telemetry: false,
    envFor: (url) => ({
      CANDOR_EXPERTS: JSON.stringify([
        { kb: 'default', teams: `${url}/|${EXPERTS_CONVERSATION}`, people: [`teams:${EXPERT.aadObjectId}`] },
      ]),
    }),
  });
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

/** Asks in a new personal chat of `from`; returns the reply card and where it is. */
async function ask(from: Presser, text: string) {
  const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text, extra: { from } });
  expect((await post(rig.messagesUrl, activity)).status).toBe(200);
  const [reply] = await repliesTo(rig, conversationId, id, 1, 15_000);
  const [row] = await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`);
  return { conversationId, card: cardOf(reply!), cardId: rig.connector.idOf(reply!)!, row: row! };
}

/** Presses a button and returns the bot's reply to the press. */
async function pressAndRead(at: Parameters<typeof press>[1]): Promise<string> {
  const sent = await press(rig, at);
  expect(sent.status).toBe(200);
  const reply = await waitFor(() => rig.connector.callsTo(replyPath(at.conversationId, sent.id))[0], 10_000, 'the reply to a press');
  return String(reply.body.text);
}

const expertPosts = () => rig.connector.callsTo(conversationPath(EXPERTS_CONVERSATION)).filter((c) => c.method === 'POST');
const texts = (card: SentCard) => card.body.filter((b) => b.type === 'TextBlock').map((b) => String(b.text));

describe('"Ask an expert" and expert answers in Teams', () => {
  let anna: Awaited<ReturnType<typeof ask>>;
  let ben: Awaited<ReturnType<typeof ask>>;
  let late: Awaited<ReturnType<typeof ask>>;
  let post: SentCard;
  let postId: string;

  beforeAll(async () => {
    anna = await ask(ANNA, QUESTION);
    ben = await ask(BEN, QUESTION);
    late = await ask(CARA, QUESTION); // refused too, but pressed only once the experts have answered
  }, 30_000);

  it('refuses the question with "Ask an expert" on the card', () => {
    for (const asked of [anna, ben]) {
      expect(asked.row.decision).toBe('abstain');
      expect(actionTitles(asked.card)).toEqual(['Ask an expert']);
    }
  });

  it('posts the question to the experts once when two askers press, and tells each asker', async () => {
    const annaSaid = await pressAndRead({
      conversationId: anna.conversationId,
      cardId: anna.cardId,
      from: ANNA,
      value: pressValue(anna.card, 'Ask an expert'),
    });
    expect(annaSaid).toContain("I've asked the knowledge base's experts");
    const benSaid = await pressAndRead({
      conversationId: ben.conversationId,
      cardId: ben.cardId,
      from: BEN,
      value: pressValue(ben.card, 'Ask an expert'),
    });
    expect(benSaid).toContain('2 people have asked it');
    const again = await pressAndRead({
      conversationId: anna.conversationId,
      cardId: anna.cardId,
      from: ANNA,
      value: pressValue(anna.card, 'Ask an expert'),
    });
    expect(again).toContain("You've already asked the experts");
    expect(expertPosts()).toHaveLength(1);
    post = cardOf(expertPosts()[0]!);
    postId = rig.connector.idOf(expertPosts()[0]!)!;
    expect(texts(post)).toEqual(expect.arrayContaining(['Question for the experts of default', `“${QUESTION}”`]));
    expect(post.body.find((b) => b.type === 'Input.Text')?.id).toBe('answer');
    expect(actionTitles(post)).toEqual(['Answer', 'Not for the KB']);
    // The post shows the second asker (an update of the same message, not a new one).
    const update = await waitFor(
      () => rig.connector.calls.filter((c) => c.method === 'PUT' && c.path === replyPath(EXPERTS_CONVERSATION, postId)).at(-1),
      10_000,
      'the post update',
    );
    expect(texts(cardOf(update)).join('\n')).toContain('2 people asked');
  });

  it("refuses a non-expert's answer and a forged button, storing nothing; asks an expert for text", async () => {
    const at = { conversationId: EXPERTS_CONVERSATION, cardId: postId, channel: true };
    const stranger = await pressAndRead({ ...at, from: STRANGER, value: pressValue(post, 'Answer', { answer: 'Thirty days, I think.' }) });
    expect(stranger).toContain("only the knowledge base's experts can answer");
    const forgedValue = { ...pressValue(post, 'Answer', { answer: 'Thirty days.' }), value: `1.${'B'.repeat(22)}` };
    expect(await pressAndRead({ ...at, from: EXPERT, value: forgedValue })).toContain('nothing was recorded');
    expect(await pressAndRead({ ...at, from: EXPERT, value: pressValue(post, 'Answer', { answer: '   ' }) })).toContain(
      'Write your answer',
    );
    expect(await listFacts(rig.app.store.db, { kb: 'default', sourcePrefix: 'expert:' })).toEqual([]);
    expect((await rig.app.store.db.select({ state: gaps.state }).from(gaps)).map((g) => g.state)).toEqual(['asked']);
  });

  it("turns an expert's answer into a fact and tells each asker once, in their conversation", async () => {
    const at = { conversationId: EXPERTS_CONVERSATION, cardId: postId, channel: true, from: EXPERT };
    const value = pressValue(post, 'Answer', { answer: ANSWER });
    const sent = await press(rig, { ...at, value });
    expect(sent.status).toBe(200);
    await waitFor(() => rig.connector.callsTo(replyPath(EXPERTS_CONVERSATION, sent.id))[0], 10_000, 'the thanks');
    expect(String(rig.connector.callsTo(replyPath(EXPERTS_CONVERSATION, sent.id))[0]!.body.text)).toContain(
      'now part of the knowledge base',
    );
    // Teams delivers the press again: nothing changes, nobody is told twice.
    expect((await press(rig, { ...at, value, id: sent.id })).status).toBe(200);
    const [fact] = await listFacts(rig.app.store.db, { kb: 'default', sourcePrefix: 'expert:' });
    expect(fact).toMatchObject({ text: ANSWER, source: `expert:teams:${EXPERT.aadObjectId}`, author: EXPERT.name });
    for (const asker of [anna, ben]) {
      const told = messagesIn(rig, asker.conversationId, TOLD);
      expect(told).toHaveLength(1);
      expect(String(told[0]!.body.text)).toContain(ANSWER.replace(/\.$/, ''));
      expect(told[0]!.path).toBe(replyPath(asker.conversationId, asker.cardId)); // a reply to the card they pressed
    }
    const updated = rig.connector.calls.filter((c) => c.method === 'PUT' && c.path === replyPath(EXPERTS_CONVERSATION, postId)).at(-1)!;
    expect(texts(cardOf(updated)).join('\n')).toContain(`✅ Answered by ${EXPERT.name}: ${ANSWER}`);
    expect(actionTitles(cardOf(updated))).toEqual([]);
  });

  it('tells an asker who presses after the answer what the expert said, at once', async () => {
    const said = await pressAndRead({
      conversationId: late.conversationId,
      cardId: late.cardId,
      from: CARA,
      value: pressValue(late.card, 'Ask an expert'),
    });
    expect(said).toBe(`An expert has already answered this: ${ANSWER}`);
    expect(messagesIn(rig, late.conversationId, TOLD)).toEqual([]);
  });

  it('"Not for the KB" closes a question as out of scope; its asker is told once', async () => {
    const dog = await ask(ANNA, 'Can I bring my dog to the office?');
    const asked = await pressAndRead({
      conversationId: dog.conversationId,
      cardId: dog.cardId,
      from: ANNA,
      value: pressValue(dog.card, 'Ask an expert'),
    });
    expect(asked).toContain("I've asked the knowledge base's experts");
    const posts = expertPosts();
    expect(posts).toHaveLength(2);
    const dogPost = posts[1]!;
    const at = { conversationId: EXPERTS_CONVERSATION, cardId: rig.connector.idOf(dogPost)!, channel: true, from: EXPERT };
    expect(await pressAndRead({ ...at, value: pressValue(cardOf(dogPost), 'Not for the KB') })).toContain(
      'Marked as not for the knowledge base',
    );
    const told = messagesIn(rig, dog.conversationId, 'outside what this knowledge base covers');
    expect(told).toHaveLength(1);
    expect(String(told[0]!.body.text)).toContain('Can I bring my dog to the office?');
    const updated = rig.connector.calls.filter((c) => c.method === 'PUT' && c.path === replyPath(EXPERTS_CONVERSATION, at.cardId)).at(-1)!;
    expect(texts(cardOf(updated))).toContain(`Marked not for the knowledge base by ${EXPERT.name}.`);
    expect((await rig.app.store.db.select({ state: gaps.state }).from(gaps).orderBy(gaps.id)).map((g) => g.state)).toEqual([
      'answered',
      'out_of_scope',
    ]);
  });

  it("answers the question asked again, and reworded, from the expert's fact, citing it", async () => {
    for (const question of [QUESTION, 'How much annual leave does a new employee get?']) {
      const cara = await ask(CARA, question);
      expect(cara.row.decision).toBe('answer');
      const evidence = cara.row.evidence as readonly { source: string }[];
      expect(evidence.map((e) => e.source)).toEqual([`expert:teams:${EXPERT.aadObjectId}`]);
      expect(texts(cara.card)[0]).toBe(ANSWER);
      expect(texts(cara.card).join('\n')).toMatch(/Answered by an expert on \d{4}-\d{2}-\d{2}/);
    }
  });
});
