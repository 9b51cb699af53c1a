import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { currentLabels, labelHistory } from '../../../src/review/label-store.js';
import { sampleInteractions } from '../../../src/review/sample-interactions.js';
import { waitFor, type FakeServer } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { sendSigned, startFakeSlack, startSlackRig, TEAM, type SlackRig } from './slack-harness.js';

// Review cards over real HTTP: the real Bolt app, a fake Slack Web API; reviewers react or press buttons.
const REVIEW = 'CREVIEW';
const REVIEWER = 'UREVIEWER';
const STRANGER = 'USTRANGER';
const GROUP_MEMBER = 'UINGROUP';

let slack: FakeServer;
let rig: SlackRig;
let kb: { cleanup: () => void };
let card: { ts: string; sampleId: number; blocks: Array<Record<string, any>> };

beforeAll(async () => {
  slack = await startFakeSlack();
  slack.use((call) =>
    call.path === '/api/chat.update' ? { body: { ok: true, channel: call.body.channel, ts: call.body.ts } } : undefined,
  );
  slack.use((call) =>
    call.path === '/api/usergroups.users.list'
      ? { body: call.body.usergroup === 'S0REVIEWERS' ? { ok: true, users: [GROUP_MEMBER] } : { ok: false, error: 'no_such_subteam' } }
      : undefined,
  );
  rig = await startSlackRig({
    slack,
    env: { CANDOR_REVIEW_SLACK_CHANNEL: REVIEW, CANDOR_REVIEWERS: `slack:${REVIEWER},slack:group:S0REVIEWERS` },
  });
  kb = await ingestFixture(rig.app.store.db);
  await rig.app.ask({ question: 'What does ADR-0050 say about MediShield Life?', channel: 'http' });
  const [sample] = await sampleInteractions(rig.app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 10, seed: 1 });
  expect(await rig.channel.review.postPending()).toBe(1);
  const post = slack.callsTo('/api/chat.postMessage').find((c) => c.body.channel === REVIEW)!;
  const ts = `${1_700_000_000 + slack.callsTo('/api/chat.postMessage').length}.000100`;
  card = { ts, sampleId: sample!.sampleId, blocks: post.body.blocks as Array<Record<string, any>> };
}, 30_000);

afterAll(async () => {
  await rig?.close();
  await slack?.close();
  kb?.cleanup();
});

let seq = 0;
function reaction(type: 'reaction_added' | 'reaction_removed', user: string, name: string, eventId = `EvR${++seq}`): string {
  return JSON.stringify({
    token: 'x',
    team_id: TEAM,
    api_app_id: 'A0CANDOR',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type,
      user,
      reaction: name,
      item_user: 'UCANDOR',
      item: { type: 'message', channel: REVIEW, ts: card.ts },
      event_ts: `${Date.now() / 1000}`,
    },
    authorizations: [{ team_id: TEAM, user_id: 'UCANDOR', is_bot: true }],
  });
}

function button(user: string, actionId: string, value = String(card.sampleId)): string {
  const payload = {
    type: 'block_actions',
    team: { id: TEAM, domain: 'candor-test' },
    user: { id: user, team_id: TEAM },
    api_app_id: 'A0CANDOR',
    token: 'x',
    trigger_id: `trig-${++seq}`,
    container: { type: 'message', message_ts: card.ts, channel_id: REVIEW, is_ephemeral: false },
    channel: { id: REVIEW, name: 'review' },
    message: { type: 'message', ts: card.ts, text: 'Review', blocks: card.blocks },
    response_url: `${slack.url}/response`,
    actions: [{ type: 'button', action_id: actionId, block_id: 'labels:abstention', value, action_ts: `${Date.now() / 1000}` }],
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

const labels = () => currentLabels(rig.app.store.db, { sampleIds: [card.sampleId] });
const form = { contentType: 'application/x-www-form-urlencoded' };

describe('review cards in Slack', () => {
  it('posts a card to the review channel with the question, the refusal, the criteria, the emoji legend and label buttons', () => {
    const text = JSON.stringify(card.blocks);
    expect(card.blocks[0]).toMatchObject({ type: 'header', text: { text: expect.stringContaining('Refused (unknown_entity)') } });
    expect(text).toContain('What does ADR-0050 say about MediShield Life?');
    expect(text).toContain('`correct` when the bot answered'); // abstention criteria, written out
    expect(text).toContain('React to label: :white_check_mark: correct   :x: incorrect');
    expect(text).not.toContain('*factuality*'); // a refusal has no factuality task
    const buttons = card.blocks
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements.map((e: { action_id: string }) => e.action_id));
    expect(buttons).toEqual(
      expect.arrayContaining(['candor_label:abstention:correct', 'candor_label:abstention:incorrect', 'candor_label:dontknowness:5']),
    );
  });

  it("a reviewer's reaction adds a label; a redelivery changes nothing; removing it deletes the label", async () => {
    const body = reaction('reaction_added', REVIEWER, 'white_check_mark', 'EvSame1');
    expect((await sendSigned(rig.eventsUrl, body)).status).toBe(200);
    await waitFor(async () => (await labels()).length === 1);
    expect(await labels()).toEqual([{ sampleId: card.sampleId, task: 'abstention', annotator: `slack:${REVIEWER}`, value: 'correct' }]);
    await sendSigned(rig.eventsUrl, body, { retryNum: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await labelHistory(rig.app.store.db, card.sampleId)).toHaveLength(1);

    await sendSigned(rig.eventsUrl, reaction('reaction_removed', REVIEWER, 'white_check_mark'));
    await waitFor(async () => (await labels()).length === 0);
    expect((await labelHistory(rig.app.store.db, card.sampleId)).map((e) => e.action)).toEqual(['set', 'remove']);
  });

  it("a non-reviewer's reaction is not recorded, and they get an ephemeral note", async () => {
    const before = (await labelHistory(rig.app.store.db, card.sampleId)).length;
    await sendSigned(rig.eventsUrl, reaction('reaction_added', STRANGER, 'x'));
    const [note] = await waitFor(
      () =>
        slack.callsTo('/api/chat.postEphemeral').filter((c) => c.body.user === STRANGER).length > 0 &&
        slack.callsTo('/api/chat.postEphemeral').filter((c) => c.body.user === STRANGER),
    );
    expect(note!.body).toMatchObject({ channel: REVIEW, text: expect.stringContaining("only configured reviewers' labels count") });
    expect(await labelHistory(rig.app.store.db, card.sampleId)).toHaveLength(before);
  });

  it('a button click records a label and updates the card to show it', async () => {
    const response = await sendSigned(rig.eventsUrl, button(REVIEWER, 'candor_label:dontknowness:4'), form);
    expect(response.status).toBe(200);
    await waitFor(async () => (await labels()).some((l) => l.task === 'dontknowness'));
    expect((await labels()).find((l) => l.task === 'dontknowness')).toMatchObject({ value: '4', annotator: `slack:${REVIEWER}` });
    const update = await waitFor(() =>
      slack.callsTo('/api/chat.update').find((c) => JSON.stringify(c.body.blocks).includes(`slack:${REVIEWER} dontknowness=4`)),
    );
    expect(update.body).toMatchObject({ channel: REVIEW, ts: card.ts });
    // Changing one's mind: the latest counts, the history keeps both.
    await sendSigned(rig.eventsUrl, button(REVIEWER, 'candor_label:dontknowness:5'), form);
    await waitFor(async () => (await labels()).find((l) => l.task === 'dontknowness')?.value === '5');
  });

  it('a member of a reviewer user group counts as a reviewer', async () => {
    await sendSigned(rig.eventsUrl, reaction('reaction_added', GROUP_MEMBER, 'x'));
    await waitFor(async () => (await labels()).some((l) => l.annotator === `slack:${GROUP_MEMBER}`));
    expect((await labels()).find((l) => l.annotator === `slack:${GROUP_MEMBER}`)).toMatchObject({ task: 'abstention', value: 'incorrect' });
    expect(slack.callsTo('/api/usergroups.users.list').map((c) => c.body.usergroup)).toContain('S0REVIEWERS');
  });

  it('posts the agreement summary to the review channel', async () => {
    await rig.channel.review.postSummary('Agreement report (manual)\nabstention: kappa 0.58');
    const last = slack.callsTo('/api/chat.postMessage').at(-1);
    expect(last?.body).toMatchObject({ channel: REVIEW, text: expect.stringContaining('abstention: kappa 0.58') });
  });

  it('a forged click is rejected with 401 and records nothing', async () => {
    const count = async () =>
      ((await rig.app.store.db.execute(sql`select count(*)::int as n from label_events`)) as unknown as { rows: { n: number }[] }).rows[0]!
        .n;
    const before = await count();
    const response = await sendSigned(rig.eventsUrl, button(REVIEWER, 'candor_label:abstention:incorrect'), {
      ...form,
      signature: 'v0=forged',
    });
    expect(response.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
