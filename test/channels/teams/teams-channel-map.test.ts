import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { completion, reply, startFakeOpenAi, type FakeOpenAi } from '../../support/fake-openai.js';
import { HR_FACTS, ingestFacts, IT_FACTS, rowWithKb } from '../channel-kbs.js';
import { sleep, waitFor } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { post, repliesTo, startTeamsRig, teamsActivity, TENANT, type TeamsRig } from './teams-harness.js';

// Bot Framework activities into the real adapter; the connector and the model are local fakes.
const HR = '19:hr@thread.tacv2';
const IT = '19:it@thread.tacv2';
const OPEN = '19:open@thread.tacv2';
const CHANNELS = [
  { teams: HR, kb: 'hr' },
  { teams: IT, kb: 'it', mentionOnly: true },
  { teams: OPEN, kb: 'hr' },
];

let rig: TeamsRig;
let model: FakeOpenAi;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  model = await startFakeOpenAi();
  rig = await startTeamsRig({
    env: {
      CANDOR_CHANNELS: JSON.stringify(CHANNELS),
      OPENAI_BASE_URL: model.baseUrl,
      CANDOR_CHAT_MODEL: 'fake-model',
      CANDOR_LLM_MAX_RETRIES: '0',
    },
  });
  // A personal chat the bot opens for a private answer ("ask" in a channel).
  rig.connector.use((call) =>
    call.method === 'POST' && call.path === '/v3/conversations' ? { body: { id: 'a:1private-chat', activityId: 'x' } } : undefined,
  );
  const db = rig.app.store.db;
  cleanups.push((await ingestFixture(db)).cleanup, await ingestFacts(db, 'hr', HR_FACTS), await ingestFacts(db, 'it', IT_FACTS));
}, 30_000);

afterAll(async () => {
  await rig?.close();
  await model?.close();
  for (const cleanup of cleanups) cleanup();
});

/** A channel post (its own thread's root) or a reply in the thread of `root`. */
function inChannel(channel: string, text: string, options: { root?: string; mention?: boolean } = {}) {
  const id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return teamsActivity(rig.connector.url, {
    text,
    id,
    conversationType: 'channel',
    conversationId: `${channel};messageid=${options.root ?? id}`,
    mention: options.mention ?? true,
  });
}

/** The model's answer, citing the fact the prompt numbers for `text`. */
const answerWith = (text: string, answer: string) => (call: Parameters<typeof import('../../support/fake-openai.js').factNumber>[0]) => {
  const messages = call.body.messages as { content: string }[];
  const line = (messages.at(-1)?.content ?? '').split('\n').find((l) => l.includes(text));
  const n = Number(/^\[(\d+)\]/.exec(line ?? '')?.[1] ?? 1);
  return reply(true, answer, [n]);
};

async function asked(a: { activity: Record<string, unknown>; id: string; conversationId: string }) {
  expect((await post(rig.messagesUrl, a.activity)).status).toBe(200);
  return waitFor(async () => {
    const row = await rowWithKb(rig.app.store.db, `${a.conversationId}|${a.id}`);
    return row?.status === 'done' && row;
  });
}

const cardText = (call: { body: Record<string, unknown> }) => JSON.stringify(call.body.attachments);

describe('Teams conversations mapped to knowledge bases', () => {
  it('answers each channel from its own KB; a personal chat uses the default', async () => {
    model.script(answerWith('18 days', 'Full-time staff get 18 days of annual leave a year [1].'));
    const hr = inChannel(HR, 'What is the annual leave for staff?');
    expect(await asked(hr)).toMatchObject({ decision: 'answer', kb: 'hr' });
    expect(cardText((await repliesTo(rig, hr.conversationId, hr.id))[0]!)).toContain('18 days');

    // The IT policies hold no leave: refused by the gate before any model call.
    const calls = model.chatCalls().length;
    const it = inChannel(IT, 'What is the annual leave for staff?');
    expect(await asked(it)).toMatchObject({ decision: 'abstain', kb: 'it' });
    expect(model.chatCalls().length).toBe(calls);

    model.script(answerWith('large hospital bills', 'It covers large hospital bills [1].'));
    const personal = teamsActivity(rig.connector.url, { text: 'What does MediShield Life cover?' });
    expect(await asked(personal)).toMatchObject({ decision: 'answer', kb: 'default' });
  });

  it('a mention-only channel ignores un-mentioned messages; a channel that takes every message answers them', async () => {
    const quiet = inChannel(IT, 'Who do I tell when my laptop is stolen?', { mention: false });
    expect((await post(rig.messagesUrl, quiet.activity)).status).toBe(200);
    model.script(answerWith('16 weeks', 'Parents get 16 weeks of paid parental leave [1].'));
    const open = inChannel(OPEN, 'How long is paid parental leave?', { mention: false });
    expect(await asked(open)).toMatchObject({ decision: 'answer', kb: 'hr' });
    await sleep(200);
    expect(await rowWithKb(rig.app.store.db, `${quiet.conversationId}|${quiet.id}`)).toBeUndefined();
  });

  it('a follow-up in the thread is rewritten by the model (one call, then the gate) and shown as understood', async () => {
    model.script(answerWith('18 days', 'Full-time staff get 18 days of annual leave a year [1].'));
    const root = inChannel(HR, 'What is the annual leave for staff?');
    await asked(root);
    const before = model.chatCalls().length;
    model.script(
      completion(JSON.stringify({ question: 'What is the annual leave for managers?' })),
      answerWith('21 days', 'Managers get 21 days of annual leave a year [1].'),
    );
    const followUp = inChannel(HR, 'and for managers?', { root: root.id });
    const row = await asked(followUp);
    expect(row).toMatchObject({
      decision: 'answer',
      kb: 'hr',
      question: 'What is the annual leave for managers?',
      typedQuestion: 'and for managers?',
      understoodBy: 'rewritten',
      threadRef: `${TENANT}|${HR};messageid=${root.id}`,
    });
    const rewrite = model.chatCalls()[before]!;
    expect(JSON.stringify(rewrite.body.messages)).toContain('What is the annual leave for staff?');
    expect(JSON.stringify(rewrite.body.messages)).toContain('and for managers?');
    const card = cardText((await repliesTo(rig, followUp.conversationId, followUp.id))[0]!);
    expect(card).toContain('Understood as: What is the annual leave for managers?');
    expect(card).toContain('21 days');
  });

  it('a failed rewrite judges the follow-up as typed (fail closed)', async () => {
    model.script(answerWith('18 days', 'Full-time staff get 18 days of annual leave a year [1].'));
    const root = inChannel(HR, 'What is the annual leave for staff?');
    await asked(root);
    model.script({ status: 500, body: { error: { message: 'down', type: 'server_error' } } });
    const followUp = inChannel(HR, 'and for managers?', { root: root.id });
    const row = await asked(followUp);
    expect(row).toMatchObject({ question: 'and for managers?', typedQuestion: null, understoodBy: null, decision: 'abstain' });
  });

  it('"ask QUESTION" in a channel answers in the asker\'s personal chat and is recorded', async () => {
    model.script(answerWith('16 weeks', 'Parents get 16 weeks of paid parental leave [1].'));
    const ask = inChannel(HR, 'ask How long is paid parental leave?');
    expect(await asked(ask)).toMatchObject({ decision: 'answer', kb: 'hr', question: 'How long is paid parental leave?' });
    const created = await waitFor(() => rig.connector.callsTo('/v3/conversations')[0], 5000, 'a personal chat');
    expect(created.body).toMatchObject({ isGroup: false, members: [{ id: '29:1asker-user-id' }], tenantId: TENANT });
    const sent = await waitFor(() => rig.connector.callsTo('/v3/conversations/a%3A1private-chat/activities')[0], 5000, 'the answer');
    expect(cardText(sent)).toContain('16 weeks');
    // Nothing in the channel.
    expect(rig.connector.callsTo(`/v3/conversations/${encodeURIComponent(ask.conversationId)}/activities/${ask.id}`)).toHaveLength(0);
  });

  it('"status" names the KB that answers here; "review here" prints the ids the settings need', async () => {
    const status = inChannel(HR, 'status');
    await post(rig.messagesUrl, status.activity);
    const [statusReply] = await repliesTo(rig, status.conversationId, status.id);
    expect(String(statusReply!.body.text)).toMatch(/Knowledge base hr answers here[\s\S]*Knowledge base \*hr\*: version 1/);
    const here = inChannel(HR, 'review here');
    await post(rig.messagesUrl, here.activity);
    const [hereReply] = await repliesTo(rig, here.conversationId, here.id);
    expect(String(hereReply!.body.text)).toContain(`CANDOR_REVIEW_TEAMS_CONVERSATION=${rig.connector.url}/|${HR}`);
    expect(String(hereReply!.body.text)).not.toContain('`');
  });
});
