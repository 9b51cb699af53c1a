import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { askerFeedback, reviewSamples } from '../../../src/store/schema.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { actionTitles, cardOf, press, pressValue, type SentCard } from './teams-cards.js';
import { post, repliesTo, replyPath, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// Asker feedback on Teams reply cards over real HTTP: the real CloudAdapter, a fake Bot Framework connector.
const EXPERTS_CONVERSATION = '19:experts@thread.tacv2';
const ANNA = { id: '29:anna', aadObjectId: 'aad-anna', name: 'Anna' };
const BEN = { id: '29:ben', aadObjectId: 'aad-ben', name: 'Ben' };

let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  rig = await startTeamsRig({
    telemetry: false,
    envFor: (url) => ({
      CANDOR_EXPERTS: JSON.stringify([{ kb: 'default', teams: `${url}/|${EXPERTS_CONVERSATION}`, people: ['teams:aad-expert'] }]),
    }),
  });
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

/** Asks a question in a new personal chat; returns the reply card, its activity id and the interaction's id. */
async function ask(text: string) {
  const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text, extra: { from: ANNA } });
  expect((await post(rig.messagesUrl, activity)).status).toBe(200);
  const [reply] = await repliesTo(rig, conversationId, id, 1, 15_000);
  const [row] = await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`);
  return { conversationId, card: cardOf(reply!), cardId: rig.connector.idOf(reply!)!, interactionId: row!.id };
}

const feedbackOn = (interactionId: number) =>
  rig.app.store.db.select().from(askerFeedback).where(eq(askerFeedback.interactionId, interactionId)).orderBy(askerFeedback.id);

const updatesOf = (conversationId: string, cardId: string) =>
  rig.connector.calls.filter((c) => c.method === 'PUT' && c.path === replyPath(conversationId, cardId));

const texts = (card: SentCard) => card.body.filter((b) => b.type === 'TextBlock').map((b) => String(b.text));

describe('asker feedback on Teams reply cards', () => {
  let answer: Awaited<ReturnType<typeof ask>>;
  beforeAll(async () => {
    answer = await ask('What does MediShield Life cover?');
  }, 30_000);

  it('puts 👍 Helpful and 👎 Not helpful (a reason and a comment) on an answer, and "Ask an expert" on a refusal', async () => {
    expect(answer.card.version).toBe('1.4');
    expect(actionTitles(answer.card)).toEqual(['👍 Helpful', '👎 Not helpful']);
    const form = answer.card.actions![1]!.card as SentCard;
    expect(form.body.map((b) => [b.type, b.id])).toEqual([
      ['Input.ChoiceSet', 'reason'],
      ['Input.Text', 'comment'],
    ]);
    expect(form.body[0]!.choices.map((c: { value: string }) => c.value)).toEqual([
      'wrong',
      'outdated',
      'incomplete',
      'did_not_answer',
      'other',
    ]);
    const refusal = await ask('What does ADR-0050 say about MediShield Life?');
    expect(texts(refusal.card)[0]).toBe("I don't know.");
    expect(actionTitles(refusal.card)).toEqual(['Ask an expert']);
    expect(refusal.card.actions![0]!.data).toEqual({ candor: 'ask_expert', value: expect.stringMatching(/^\d+\.[\w-]{22}$/) });
  });

  it('stores a 👍 once when Teams delivers the press twice, and updates the card to show it', async () => {
    const value = pressValue(answer.card, '👍 Helpful');
    const at = { conversationId: answer.conversationId, cardId: answer.cardId, from: ANNA, value };
    const first = await press(rig, at);
    expect(first.status).toBe(200);
    expect((await press(rig, { ...at, id: first.id })).status).toBe(200);
    expect((await feedbackOn(answer.interactionId)).map((f) => [f.kind, f.eventId])).toEqual([
      ['helpful', `teams:${answer.conversationId}|${first.id}`],
    ]);
    const update = await waitFor(() => updatesOf(answer.conversationId, answer.cardId).at(-1), 10_000, 'the card update');
    const updated = cardOf(update);
    expect(texts(updated)[0]).toBe(texts(answer.card)[0]); // the answer is still there
    expect(texts(updated)).toContain('Feedback: 👍 Helpful. Thank you.');
    expect(actionTitles(updated)).toEqual(['✓ 👍 Helpful', '👎 Not helpful']);
  });

  it('stores a 👎 with its reason and comment; the reply goes to reviewers (asker_not_helpful) and may go to experts', async () => {
    const value = pressValue(answer.card, 'Send', { reason: 'outdated', comment: 'The 2026 booklet says otherwise.' });
    const sent = await press(rig, { conversationId: answer.conversationId, cardId: answer.cardId, from: BEN, value });
    expect(sent.status).toBe(200);
    const mine = (await feedbackOn(answer.interactionId)).filter((f) => f.eventId === `teams:${answer.conversationId}|${sent.id}`);
    expect(mine.map((f) => [f.kind, f.reason, f.comment])).toEqual([['not_helpful', 'outdated', 'The 2026 booklet says otherwise.']]);
    const samples = await rig.app.store.db.select().from(reviewSamples).where(eq(reviewSamples.interactionId, answer.interactionId));
    expect(samples.map((s) => s.stratum)).toEqual(['asker_not_helpful']);
    const updated = cardOf(await waitFor(() => updatesOf(answer.conversationId, answer.cardId).at(-1), 10_000, 'the card update'));
    expect(texts(updated)).toContain('Feedback: 👎 Not helpful (Out of date). Thank you.');
    expect(actionTitles(updated)).toEqual(['👍 Helpful', '✓ 👎 Not helpful', 'Ask an expert']);
  });

  it('stores nothing for a forged button value, and tells the presser', async () => {
    const before = await feedbackOn(answer.interactionId);
    const forged = [
      `${answer.interactionId}.${'A'.repeat(22)}`,
      `${answer.interactionId + 1}.${String(pressValue(answer.card, '👍 Helpful').value).split('.')[1]}`,
    ];
    for (const value of forged) {
      const sent = await press(rig, {
        conversationId: answer.conversationId,
        cardId: answer.cardId,
        from: BEN,
        value: { ...pressValue(answer.card, '👍 Helpful'), value },
      });
      const note = await waitFor(() => rig.connector.callsTo(replyPath(answer.conversationId, sent.id))[0], 10_000, 'the note');
      expect(String(note.body.text)).toContain('nothing was recorded');
    }
    expect(await feedbackOn(answer.interactionId)).toEqual(before);
    expect(await feedbackOn(answer.interactionId + 1)).toEqual([]);
  });

  it('never puts a tampered card copy on the card: the choice is stored and told instead', async () => {
    const value = pressValue(answer.card, '👍 Helpful');
    const [seal] = String(value.candorCard).split('.');
    const tampered = `${seal}.${JSON.stringify({ kb: 'default', body: [{ type: 'TextBlock', text: 'Send your password to evil.example' }] })}`;
    const updates = updatesOf(answer.conversationId, answer.cardId).length;
    const sent = await press(rig, {
      conversationId: answer.conversationId,
      cardId: answer.cardId,
      from: BEN,
      value: { ...value, candorCard: tampered },
    });
    const note = await waitFor(() => rig.connector.callsTo(replyPath(answer.conversationId, sent.id))[0], 10_000, 'the note');
    expect(String(note.body.text)).toContain('your feedback (👍 Helpful) is recorded');
    expect(updatesOf(answer.conversationId, answer.cardId)).toHaveLength(updates);
    expect(JSON.stringify(rig.connector.calls.map((c) => c.body))).not.toContain('evil.example');
  });
});
