import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { currentLabels } from '../../../src/review/label-store.js';
import { sampleInteractions } from '../../../src/review/sample-interactions.js';
import { waitFor } from '../fake-http.js';
import { ingestWithLinks } from '../review-kb.js';
import { adaptiveCard15Problems } from './adaptive-card-schema.js';
import { post, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// Review cards in Teams over real HTTP: the real CloudAdapter, a fake Bot Framework connector.
const REVIEW_CONVERSATION = '19:review@thread.tacv2';
const REVIEWER = { id: '29:reviewer', aadObjectId: 'aad-reviewer-0001', name: 'Reviewer' };
const SECOND = { id: '29:second', aadObjectId: 'aad-reviewer-0002', name: 'Second' };
const STRANGER = { id: '29:stranger', aadObjectId: 'aad-stranger', name: 'Stranger' };
const CARD_TYPE = 'application/vnd.microsoft.card.adaptive';

type Card = { version: string; refresh: Record<string, any>; body: Array<Record<string, any>>; actions: Array<Record<string, any>> };

let rig: TeamsRig;
let kb: { cleanup: () => void };
let sampleId: number;
let cardId: string;
let posted: Card;

beforeAll(async () => {
  rig = await startTeamsRig({
    telemetry: false,
    envFor: (url) => ({
      CANDOR_REVIEW_TEAMS_CONVERSATION: `${url}/|${REVIEW_CONVERSATION}`,
      CANDOR_REVIEWERS: `teams:${REVIEWER.aadObjectId},teams:${SECOND.aadObjectId}`,
      CANDOR_PUBLIC_URL: 'https://candor.example.org',
    }),
  });
  kb = await ingestWithLinks(rig.app.store.db);
  await rig.app.ask({ question: 'What is the MediShield Life deductible for a Class B2 ward?', channel: 'http' });
  const [sample] = await sampleInteractions(rig.app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 5, seed: 3 });
  sampleId = sample!.sampleId;
  expect(await rig.channel.postPendingReviews()).toBe(1);
  const sent = rig.connector.calls.find(
    (c) => c.method === 'POST' && c.path === `/v3/conversations/${encodeURIComponent(REVIEW_CONVERSATION)}/activities`,
  )!;
  cardId = rig.connector.idOf(sent)!;
  const [attachment] = sent.body.attachments as { contentType: string; content: Card }[];
  expect(attachment!.contentType).toBe(CARD_TYPE);
  posted = attachment!.content;
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

/** An `adaptiveCard/action` invoke as Teams sends it for an Action.Execute on the card; returns Candor's invoke response. */
async function execute(from: typeof REVIEWER, verb: string, data: unknown): Promise<{ status: number; body: any }> {
  const { activity } = teamsActivity(rig.connector.url, {
    type: 'invoke',
    conversationType: 'channel',
    conversationId: REVIEW_CONVERSATION,
    mention: false,
    extra: {
      name: 'adaptiveCard/action',
      from,
      replyToId: cardId,
      value: { action: { type: 'Action.Execute', verb, data }, trigger: 'manual' },
    },
  });
  const response = await post(rig.messagesUrl, activity);
  return { status: response.status, body: await response.json() };
}

/** The Action.Execute titled `title` (anywhere in the card's body), with the menus' values merged into its data as Teams does. */
function pressOn(card: Card, title: string, menus: Record<string, string> = {}): { verb: string; data: Record<string, unknown> } {
  const action = card.body.flatMap((b) => (b.type === 'ActionSet' ? b.actions : [])).find((a: { title: string }) => a.title === title);
  if (!action) throw new Error(`no "${title}" on the card`);
  return { verb: action.verb, data: { ...action.data, ...menus } };
}

const labels = () => currentLabels(rig.app.store.db, { sampleIds: [sampleId] });
const menu = (card: Card, id: string) => card.body.find((b) => b.type === 'Input.ChoiceSet' && b.id === id)!;
const texts = (card: Card) => card.body.filter((b) => b.type === 'TextBlock').map((b) => b.text as string);

describe('review cards in Teams', () => {
  it('posts an Adaptive Card 1.5 with Universal Actions, no Markdown source, human labels and a per-person refresh', () => {
    expect(adaptiveCard15Problems(posted)).toEqual([]);
    expect(posted.version).toBe('1.5');
    const json = JSON.stringify(posted);
    expect(json).not.toContain('`');
    expect(json).not.toContain('Action.Submit');
    expect(texts(posted)).toEqual(
      expect.arrayContaining([
        'What is the MediShield Life deductible for a Class B2 ward?',
        'Reply · Answered',
        expect.stringMatching(/^1\. \[MediShield Life booklet, p\. 7.*\]\(https:\/\/example\.org\/medishield#ms-deductible\)$/),
      ]),
    );
    const facts = posted.body.find((b) => b.type === 'FactSet')!.facts.map((f: { title: string }) => f.title);
    expect(facts).toEqual(['Review', 'Channel', 'Knowledge base', 'Asked']);
    expect(pressOn(posted, '✅ Correct')).toEqual({
      verb: 'candor.review.label',
      data: { candor: 'label', sampleId, task: 'abstention', value: 'correct' },
    });
    expect(menu(posted, 'factuality').choices.map((c: { title: string }) => c.title)).toEqual(['Factual', 'Not factual', 'Unsure']);
    expect(menu(posted, 'dontknowness').choices).toHaveLength(5);
    expect(posted.refresh.action).toMatchObject({ type: 'Action.Execute', verb: 'candor.review.refresh' });
    expect(posted.actions.map((a) => a.title)).toContain('How to judge');
  });

  it('checks cards against Adaptive Card 1.5 for real: a misspelt value, an unknown element and a 1.6 feature are problems', () => {
    const broken = {
      type: 'AdaptiveCard',
      version: '1.5',
      body: [{ type: 'TextBlock', text: 'x', weight: 'Heavy' }, { type: 'Carousel' }],
    };
    const problems = adaptiveCard15Problems(broken);
    expect(problems.some((p) => p.includes('weight'))).toBe(true);
    expect(problems.some((p) => p.includes('Carousel'))).toBe(true);
  });

  it('"How to judge" shows the criteria as fact sets, outcomes by their labels', () => {
    const judge = posted.actions.find((a) => a.title === 'How to judge')!;
    expect(judge.type).toBe('Action.ShowCard');
    const factSets = (judge.card.body as Array<Record<string, any>>).filter((b) => b.type === 'FactSet');
    expect(factSets[0]!.facts[0]).toEqual({
      title: '✅ Correct',
      value: expect.stringContaining('when the bot answered and the cited facts'),
    });
    expect(factSets.flatMap((f) => f.facts.map((x: { title: string }) => x.title))).toContain('Not factual');
  });

  it('links the card to the interaction in the console (CANDOR_PUBLIC_URL)', () => {
    // The channel passes config.publicUrl to teamsReview (its `publicUrl` dependency).
    expect(posted.actions).toContainEqual({
      type: 'Action.OpenUrl',
      title: 'Open in console',
      url: expect.stringMatching(/^https:\/\/candor\.example\.org\/interactions\/\d+$/),
    });
  });

  it("a reviewer's Action.Execute stores the label and is answered with the card showing their choice", async () => {
    const { verb, data } = pressOn(posted, '❌ Incorrect');
    const response = await execute(REVIEWER, verb, data);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ statusCode: 200, type: CARD_TYPE });
    const card = response.body.value as Card;
    expect(adaptiveCard15Problems(card)).toEqual([]);
    expect(card.body.flatMap((b) => (b.type === 'ActionSet' ? b.actions.map((a: { title: string }) => a.title) : []))).toEqual([
      '✅ Correct',
      '❌ Incorrect ✓',
      'Save',
    ]);
    expect(card.refresh.userIds).toEqual([REVIEWER.id]);
    expect(texts(card).at(-1)).toBe('Labelled by 1 reviewer (you among them; your choices are shown).');
    expect(await labels()).toEqual([{ sampleId, task: 'abstention', annotator: `teams:${REVIEWER.aadObjectId}`, value: 'incorrect' }]);
    // Everyone else's copy is updated too, without anyone's choice selected, and refreshes for the presser.
    const update = await waitFor(() => rig.connector.calls.find((c) => c.method === 'PUT' && c.path.endsWith(`/activities/${cardId}`)));
    const shared = (update.body.attachments as { content: Card }[])[0]!.content;
    expect(JSON.stringify(shared.body)).not.toContain('✓');
    expect(shared.refresh.userIds).toEqual([REVIEWER.id]);
  });

  it('"Save" stores the menus\' labels; the answer shows them chosen', async () => {
    const { verb, data } = pressOn(posted, 'Save', { factuality: 'non_factual', dontknowness: '2' });
    const response = await execute(REVIEWER, verb, data);
    const card = response.body.value as Card;
    expect(adaptiveCard15Problems(card)).toEqual([]);
    expect(menu(card, 'factuality').value).toBe('non_factual');
    expect(menu(card, 'dontknowness').value).toBe('2');
    expect((await labels()).map((l) => [l.task, l.value])).toEqual([
      ['abstention', 'incorrect'],
      ['dontknowness', '2'],
      ['factuality', 'non_factual'],
    ]);
  });

  it("the refresh draws the card for whoever views it: a reviewer's own choices, nobody else's", async () => {
    const update = rig.connector.calls.filter((c) => c.method === 'PUT' && c.path.endsWith(`/activities/${cardId}`)).at(-1)!;
    const shared = (update.body.attachments as { content: Card }[])[0]!.content;
    const { verb, data } = shared.refresh.action as { verb: string; data: unknown };
    const mine = (await execute(REVIEWER, verb, data)).body.value as Card;
    expect(adaptiveCard15Problems(mine)).toEqual([]);
    expect(menu(mine, 'factuality').value).toBe('non_factual');
    const theirs = (await execute(SECOND, verb, data)).body.value as Card;
    expect(menu(theirs, 'factuality').value).toBeUndefined();
    expect(texts(theirs).at(-1)).toBe('Labelled by 1 reviewer.');
  });

  it("a non-reviewer's press is answered with a note; nothing is stored", async () => {
    const { verb, data } = pressOn(posted, '✅ Correct');
    const response = await execute(STRANGER, verb, data);
    expect(response.body).toMatchObject({ statusCode: 200, type: 'application/vnd.microsoft.activity.message' });
    expect(response.body.value).toContain('add you to CANDOR_REVIEWERS'); // the same note as in Slack
    expect((await labels()).some((l) => l.annotator === `teams:${STRANGER.aadObjectId}`)).toBe(false);
  });

  it('an Action.Execute that is not a review action is refused (400), as any invoke Candor does not take', async () => {
    const response = await execute(REVIEWER, 'someone.else', { x: 1 });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'unsupported_activity' } });
  });

  it('a card posted before Universal Actions still labels by Action.Submit', async () => {
    const { activity } = teamsActivity(rig.connector.url, {
      conversationType: 'channel',
      conversationId: REVIEW_CONVERSATION,
      mention: false,
      extra: { from: SECOND, replyToId: cardId, value: { candor: 'label', sampleId, task: 'abstention', value: 'correct' } },
    });
    expect((await post(rig.messagesUrl, activity)).status).toBe(200);
    expect((await labels()).find((l) => l.annotator === `teams:${SECOND.aadObjectId}`)).toMatchObject({
      task: 'abstention',
      value: 'correct',
    });
    const update = rig.connector.calls.filter((c) => c.method === 'PUT' && c.path.endsWith(`/activities/${cardId}`)).at(-1)!;
    expect(JSON.stringify(update.body)).toContain('Labelled by 2 reviewers.');
  });

  it("a reviewer's like on the card labels abstention=correct; removing it removes the label", async () => {
    const reaction = (type: 'reactionsAdded' | 'reactionsRemoved') =>
      teamsActivity(rig.connector.url, {
        type: 'messageReaction',
        conversationType: 'channel',
        conversationId: REVIEW_CONVERSATION,
        mention: false,
        extra: { from: REVIEWER, replyToId: cardId, [type]: [{ type: 'like' }] },
      }).activity;
    const mine = async () => (await labels()).filter((l) => l.annotator === `teams:${REVIEWER.aadObjectId}` && l.task === 'abstention');
    await post(rig.messagesUrl, reaction('reactionsAdded'));
    expect((await mine()).map((l) => l.value)).toEqual(['correct']);
    await post(rig.messagesUrl, reaction('reactionsRemoved'));
    expect(await mine()).toEqual([]);
  });

  it('posts the agreement summary into the review conversation as a new message', async () => {
    await rig.channel.postReviewSummary('Agreement report (scheduled:2026-11-23T06:00Z)\nabstention: kappa 0.58');
    const sent = rig.connector.calls.filter(
      (c) => c.method === 'POST' && c.path === `/v3/conversations/${encodeURIComponent(REVIEW_CONVERSATION)}/activities`,
    );
    expect(sent.at(-1)?.body).toMatchObject({ type: 'message', text: expect.stringContaining('abstention: kappa 0.58') });
  });
});
