import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { currentLabels } from '../../../src/review/label-store.js';
import { sampleInteractions } from '../../../src/review/sample-interactions.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { post, startTeamsRig, teamsActivity, type TeamsRig } from './teams-harness.js';

// Review cards in Teams over real HTTP: the real CloudAdapter, a fake Bot Framework connector.
const REVIEW_CONVERSATION = '19:review@thread.tacv2';
const REVIEWER = 'aad-reviewer-0001';

let rig: TeamsRig;
let kb: { cleanup: () => void };
let sampleId: number;
let cardId: string;

beforeAll(async () => {
  rig = await startTeamsRig({
    telemetry: false,
    envFor: (url) => ({ CANDOR_REVIEW_TEAMS_CONVERSATION: `${url}/|${REVIEW_CONVERSATION}`, CANDOR_REVIEWERS: `teams:${REVIEWER}` }),
  });
  rig.connector.use((call) => (call.method === 'PUT' ? { body: { id: call.path.split('/').pop() } } : undefined));
  kb = await ingestFixture(rig.app.store.db);
  await rig.app.ask({ question: 'What is the MediShield Life deductible for a Class B2 ward?', channel: 'http' });
  const [sample] = await sampleInteractions(rig.app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 5, seed: 3 });
  sampleId = sample!.sampleId;
  expect(await rig.channel.postPendingReviews()).toBe(1);
  const sent = rig.connector.calls.find(
    (c) => c.method === 'POST' && c.path === `/v3/conversations/${encodeURIComponent(REVIEW_CONVERSATION)}/activities`,
  )!;
  expect(sent).toBeDefined();
  cardId = `reply-${rig.connector.calls.filter((c) => c.method === 'POST').indexOf(sent) + 1}`;
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

const submit = (from: { id: string; aadObjectId: string }, task: string, value: string) =>
  teamsActivity(rig.connector.url, {
    conversationType: 'channel',
    conversationId: REVIEW_CONVERSATION,
    mention: false,
    extra: { from: { ...from, name: 'Someone' }, replyToId: cardId, value: { candor: 'label', sampleId, task, value } },
  }).activity;

describe('review cards in Teams', () => {
  it('posts an Adaptive Card with the criteria and a button per label into the review conversation', () => {
    const sent = rig.connector.calls.find((c) => c.path === `/v3/conversations/${encodeURIComponent(REVIEW_CONVERSATION)}/activities`)!;
    const card = (sent.body.attachments as { contentType: string; content: { body: Array<Record<string, any>> } }[])[0]!;
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const text = JSON.stringify(card.content.body);
    expect(text).toContain('What is the MediShield Life deductible for a Class B2 ward?');
    expect(text).toContain('`factual` when every statement in the answer'); // an answer gets the factuality task
    const buttons = card.content.body.filter((b) => b.type === 'ActionSet').flatMap((b) => b.actions.map((a: { data: unknown }) => a.data));
    expect(buttons).toContainEqual({ candor: 'label', sampleId, task: 'abstention', value: 'correct' });
  });

  it("a reviewer's card action records the label and updates the card", async () => {
    const response = await post(rig.messagesUrl, submit({ id: '29:reviewer', aadObjectId: REVIEWER }, 'factuality', 'factual'));
    expect(response.status).toBe(200);
    expect(await currentLabels(rig.app.store.db, { sampleIds: [sampleId] })).toEqual([
      { sampleId, task: 'factuality', annotator: `teams:${REVIEWER}`, value: 'factual' },
    ]);
    const update = await waitFor(() => rig.connector.calls.find((c) => c.method === 'PUT' && c.path.endsWith(`/activities/${cardId}`)));
    expect(JSON.stringify(update.body)).toContain(`Labels: teams:${REVIEWER} factuality=factual`);
  });

  it("a non-reviewer's card action is not recorded; they are told why", async () => {
    const activity = submit({ id: '29:stranger', aadObjectId: 'aad-stranger' }, 'abstention', 'incorrect');
    await post(rig.messagesUrl, activity);
    expect((await currentLabels(rig.app.store.db, { sampleIds: [sampleId] })).some((l) => l.annotator === 'teams:aad-stranger')).toBe(
      false,
    );
    const note = rig.connector.calls.find((c) => c.method === 'POST' && c.path.endsWith(`/activities/${activity.id as string}`));
    expect(note?.body.text).toContain("only configured reviewers' labels count");
    expect(note?.body.text).toContain('add you to CANDOR_REVIEWERS'); // the same note as in Slack
  });

  it("a reviewer's like on the card labels abstention=correct; removing it removes the label", async () => {
    const reaction = (type: 'reactionsAdded' | 'reactionsRemoved') =>
      teamsActivity(rig.connector.url, {
        type: 'messageReaction',
        conversationType: 'channel',
        conversationId: REVIEW_CONVERSATION,
        mention: false,
        extra: { from: { id: '29:reviewer', aadObjectId: REVIEWER, name: 'Reviewer' }, replyToId: cardId, [type]: [{ type: 'like' }] },
      }).activity;
    await post(rig.messagesUrl, reaction('reactionsAdded'));
    expect((await currentLabels(rig.app.store.db, { sampleIds: [sampleId], task: 'abstention' })).map((l) => l.value)).toEqual(['correct']);
    await post(rig.messagesUrl, reaction('reactionsRemoved'));
    expect(await currentLabels(rig.app.store.db, { sampleIds: [sampleId], task: 'abstention' })).toEqual([]);
  });

  it('posts the agreement summary into the review conversation as a new message', async () => {
    await rig.channel.postReviewSummary('Agreement report (scheduled:2026-11-23T06:00Z)\nabstention: kappa 0.58');
    const sent = rig.connector.calls.filter(
      (c) => c.method === 'POST' && c.path === `/v3/conversations/${encodeURIComponent(REVIEW_CONVERSATION)}/activities`,
    );
    expect(sent.at(-1)?.body).toMatchObject({ type: 'message', text: expect.stringContaining('abstention: kappa 0.58') });
  });
});
