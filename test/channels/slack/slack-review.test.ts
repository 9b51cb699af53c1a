import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { currentLabels, labelHistory } from '../../../src/review/label-store.js';
import { sampleInteractions } from '../../../src/review/sample-interactions.js';
import { waitFor, type FakeServer } from '../fake-http.js';
import { ingestWithLinks } from '../review-kb.js';
import { sendSigned, startFakeSlack, startSlackRig, TEAM, type SlackRig } from './slack-harness.js';
import { buttonsOf } from './slack-interactions.js';

// Review cards over real HTTP: the real Bolt app, a fake Slack Web API; reviewers react or press buttons.
const REVIEW = 'CREVIEW';
const REVIEWER = 'UREVIEWER';
const STRANGER = 'USTRANGER';
const GROUP_MEMBER = 'UINGROUP';

let slack: FakeServer;
let rig: SlackRig;
let kb: { cleanup: () => void };
let card: { ts: string; sampleId: number; blocks: Array<Record<string, any>> };
let answered: typeof card;

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
    env: {
      CANDOR_REVIEW_SLACK_CHANNEL: REVIEW,
      CANDOR_REVIEWERS: `slack:${REVIEWER},slack:group:S0REVIEWERS`,
      CANDOR_PUBLIC_URL: 'https://candor.example.org/',
    },
  });
  kb = await ingestWithLinks(rig.app.store.db);
  await rig.app.ask({ question: 'What does ADR-0050 say about MediShield Life?', channel: 'http' });
  await rig.app.ask({ question: 'What is the MediShield Life deductible for a Class B2 ward?', channel: 'http' });
  await sampleInteractions(rig.app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 10, seed: 1 });
  expect(await rig.channel.review.postPending()).toBe(2);
  // The fake gives the n-th chat.postMessage the ts 1700000000+n; the sample id is each card's button value.
  const posted = slack.callsTo('/api/chat.postMessage').map((call, i) => ({ call, ts: `${1_700_000_001 + i}.000100` }));
  const cardOf = (question: string) => {
    const { call, ts } = posted.find((p) => p.call.body.channel === REVIEW && JSON.stringify(p.call.body.blocks).includes(question))!;
    const blocks = call.body.blocks as Array<Record<string, any>>;
    return { ts, blocks, sampleId: Number(blocks.find((b) => b.type === 'actions')!.elements[0].value) };
  };
  card = cardOf('ADR-0050');
  answered = cardOf('Class B2 ward');
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

/** A block_actions payload: `user` used `action` (a button, a menu choice, the overflow menu) on the review card. */
function interact(user: string, action: Record<string, unknown>, triggerId = `trig-${++seq}`): string {
  const payload = {
    type: 'block_actions',
    team: { id: TEAM, domain: 'candor-test' },
    user: { id: user, team_id: TEAM },
    api_app_id: 'A0CANDOR',
    token: 'x',
    trigger_id: triggerId,
    container: { type: 'message', message_ts: card.ts, channel_id: REVIEW, is_ephemeral: false },
    channel: { id: REVIEW, name: 'review' },
    message: { type: 'message', ts: card.ts, text: 'Review', blocks: card.blocks },
    response_url: `${slack.url}/response`,
    actions: [{ action_ts: `${Date.now() / 1000}`, ...action }],
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

const button = (user: string, actionId: string, value = String(card.sampleId)) =>
  interact(user, { type: 'button', action_id: actionId, block_id: 'labels:abstention', value });

/** A choice from a task's menu, as Slack sends it: the option chosen, the menu's block naming the sample. */
function choose(user: string, task: string, value: string): string {
  const block = card.blocks.find((b) => b.accessory?.action_id === `candor_label:${task}`)!;
  const option = (block.accessory.options as { value: string }[]).find((o) => o.value === value)!;
  return interact(user, { type: 'static_select', action_id: `candor_label:${task}`, block_id: block.block_id, selected_option: option });
}

const labels = () => currentLabels(rig.app.store.db, { sampleIds: [card.sampleId] });
const form = { contentType: 'application/x-www-form-urlencoded' };

describe('review cards in Slack', () => {
  it('posts a card of at most ten blocks: question, reply, sources, one context line, a control per task', () => {
    const text = JSON.stringify(card.blocks);
    expect(card.blocks.length).toBeLessThanOrEqual(10);
    expect(card.blocks[0]).toMatchObject({
      type: 'section',
      text: { text: expect.stringContaining('What does ADR-0050 say about MediShield Life?') },
      accessory: { type: 'overflow', action_id: 'candor_review_help', options: [{ text: { text: 'How to judge' } }] },
    });
    expect(card.blocks[1]).toMatchObject({
      type: 'section',
      text: { text: expect.stringContaining('*Reply* · Refused — unknown entity') },
    });
    const contexts = card.blocks.filter((b) => b.block_id === 'about');
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.elements[0].text).toMatch(/^Review #\d+ · http · KB default · <!date\^\d+\^/);
    // One actions row (abstention: ✅/❌ with styles and human labels), a menu for the 1–5 scale; no criteria on the card.
    const rows = card.blocks.filter((b) => b.type === 'actions');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.elements).toEqual([
      expect.objectContaining({
        action_id: 'candor_label:abstention:correct',
        style: 'primary',
        text: expect.objectContaining({ text: '✅ Correct' }),
      }),
      expect.objectContaining({
        action_id: 'candor_label:abstention:incorrect',
        style: 'danger',
        text: expect.objectContaining({ text: '❌ Incorrect' }),
      }),
    ]);
    const scale = card.blocks.find((b) => b.accessory?.type === 'static_select')!;
    expect(scale.accessory.action_id).toBe('candor_label:dontknowness');
    expect(scale.accessory.options.map((o: { text: { text: string } }) => o.text.text)).toContain('5 · Clearly does not know');
    expect(scale.accessory.initial_option).toBeUndefined();
    expect(text).not.toContain('`correct` when the bot answered'); // criteria live behind "How to judge"
    expect(text).not.toContain('factuality'); // a refusal has no factuality task
    expect(card.blocks.at(-1)!.elements[0].text).toContain('Not labelled yet');
  });

  it("an answer's card lists its sources as links and adds the factuality menu, still within ten blocks", () => {
    expect(answered.blocks.length).toBeLessThanOrEqual(10);
    const sources = answered.blocks.find((b) => b.block_id === 'sources')!.elements[0].text as string;
    expect(sources).toMatch(/^\*Sources\* {2}\[1\] <https:\/\/example\.org\/medishield#ms-deductible\|MediShield Life booklet, p\. 7/);
    expect(answered.blocks[1]!.text.text).toContain('*Reply* · Answered');
    const menus = answered.blocks.filter((b) => b.accessory?.type === 'static_select').map((b) => b.accessory);
    expect(menus.map((m) => m.action_id)).toEqual(['candor_label:factuality', 'candor_label:dontknowness']);
    expect(menus[0].options.map((o: { text: { text: string } }) => o.text.text)).toEqual(['Factual', 'Not factual', 'Unsure']);
    expect(answered.blocks.filter((b) => b.type === 'actions')).toHaveLength(1);
  });

  it('links the card to the interaction in the console (CANDOR_PUBLIC_URL)', () => {
    // The channel passes config.publicUrl to registerSlackReview (its `publicUrl` dependency).
    const about = card.blocks.find((b) => b.block_id === 'about')!.elements[0].text as string;
    expect(about).toMatch(/<https:\/\/candor\.example\.org\/interactions\/\d+\|Open in console>$/);
  });

  it('"How to judge" opens a modal with the criteria, outcomes by their labels, and the emoji legend', async () => {
    const option = card.blocks[0]!.accessory.options[0];
    const response = await sendSigned(
      rig.eventsUrl,
      interact(
        REVIEWER,
        { type: 'overflow', action_id: 'candor_review_help', block_id: 'question', selected_option: option },
        'trig-judge',
      ),
      form,
    );
    expect(response.status).toBe(200);
    const opened = await waitFor(() => slack.callsTo('/api/views.open').find((c) => c.body.trigger_id === 'trig-judge'));
    const view = opened.body.view as { type: string; title: { text: string }; blocks: Array<Record<string, any>> };
    expect(view).toMatchObject({ type: 'modal', title: { text: 'How to judge' } });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('*✅ Correct* — when the bot answered and the cited facts state the answer');
    expect(text).toContain('*5* — clearly says it does not know');
    expect(text).toContain(':white_check_mark: ✅ Correct');
    expect(text).not.toContain('`');
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

  it('a button press records a label; the card is updated to show the choice and who labelled', async () => {
    const response = await sendSigned(rig.eventsUrl, button(REVIEWER, 'candor_label:abstention:incorrect'), form);
    expect(response.status).toBe(200);
    await waitFor(async () => (await labels()).some((l) => l.task === 'abstention' && l.annotator === `slack:${REVIEWER}`));
    const update = await waitFor(() =>
      slack.callsTo('/api/chat.update').find((c) => JSON.stringify(c.body.blocks).includes('❌ Incorrect ✓')),
    );
    expect(update.body).toMatchObject({ channel: REVIEW, ts: card.ts });
    const blocks = update.body.blocks as Array<Record<string, any>>;
    expect(blocks.length).toBeLessThanOrEqual(10);
    expect(buttonsOf(blocks)).toEqual({
      'candor_label:abstention:correct': { text: '✅ Correct', value: String(card.sampleId), style: undefined },
      'candor_label:abstention:incorrect': { text: '❌ Incorrect ✓', value: String(card.sampleId), style: 'danger' },
    });
    expect(blocks.at(-1)!.elements[0].text).toContain(`Labelled by <@${REVIEWER}>`);
  });

  it('a menu choice records a label; the updated card shows it as the selected option', async () => {
    expect((await sendSigned(rig.eventsUrl, choose(REVIEWER, 'dontknowness', '4'), form)).status).toBe(200);
    await waitFor(async () => (await labels()).some((l) => l.task === 'dontknowness'));
    expect((await labels()).find((l) => l.task === 'dontknowness')).toMatchObject({ value: '4', annotator: `slack:${REVIEWER}` });
    const update = await waitFor(() =>
      slack
        .callsTo('/api/chat.update')
        .find((c) => (c.body.blocks as Array<Record<string, any>>).some((b) => b.accessory?.initial_option?.value === '4')),
    );
    const scale = (update.body.blocks as Array<Record<string, any>>).find((b) => b.accessory?.type === 'static_select')!;
    expect(scale.accessory.initial_option).toEqual({ text: { type: 'plain_text', text: '4 · Mostly declines', emoji: true }, value: '4' });
    // Changing one's mind: the latest counts; a button on a card posted before menus still labels.
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
