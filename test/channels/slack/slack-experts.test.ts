import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sleep, waitFor, type FakeServer } from '../fake-http.js';
import {
  ephemeralsTo,
  EXPERT,
  expertFacts,
  expertPostMessage,
  expertPosts,
  EXPERTS_CHANNEL,
  GROUP_MEMBER,
  GYM,
  GYM_ANSWER,
  startExpertsRig,
  toldIn,
  type ExpertsRig,
} from './experts-rig.js';
import { sendSigned, type SlackRig } from './slack-harness.js';
import {
  askInSlack,
  buttonPress,
  buttonsOf,
  FORM,
  modalSubmission,
  rows,
  viewOpenedFor,
  type PressedMessage,
} from './slack-interactions.js';

// "Ask an expert", the experts' posts and their answers, over real HTTP into the real Bolt app
// (signed payloads; the Web API on the fake server). A KB that routes refusals itself: slack-auto-ask.test.ts.
const STRANGER = 'USTRANGER';

describe('experts in Slack', () => {
  let experts: ExpertsRig;
  let slack: FakeServer;
  let rig: SlackRig;
  const asked: { message: PressedMessage; user: string }[] = [];

  beforeAll(async () => {
    experts = await startExpertsRig({ autoAsk: false });
    ({ slack, rig } = experts);
  });

  afterAll(() => experts?.close());

  const press = async (user: string, actionId: string, message: PressedMessage, value?: string) => {
    const b = buttonPress({ user, actionId, message, value: value ?? buttonsOf(message.blocks)[actionId]!.value, name: `${user} name` });
    expect((await sendSigned(rig.eventsUrl, b.body, FORM)).status).toBe(200);
    return b;
  };

  it('"Ask an expert" posts a question to the experts once, pressed twice and by two askers', async () => {
    for (const user of ['U0ALICE', 'U0BOB']) asked.push({ user, message: (await askInSlack(rig, GYM, { user })).message });
    const [alice, bob] = asked;
    await press(alice!.user, 'candor_ask_expert', alice!.message);
    await waitFor(() => ephemeralsTo(slack, alice!.user).length === 1, 10_000, "Alice's note");
    await press(alice!.user, 'candor_ask_expert', alice!.message);
    await press(bob!.user, 'candor_ask_expert', bob!.message);
    await waitFor(() => ephemeralsTo(slack, alice!.user).length === 2 && ephemeralsTo(slack, bob!.user).length === 1, 10_000, 'the notes');

    expect(ephemeralsTo(slack, alice!.user).map((c) => c.body.text)).toEqual([
      expect.stringMatching(/^I've asked the experts .* I'll tell you here\.$/),
      expect.stringMatching(/already been asked/),
    ]);
    expect(ephemeralsTo(slack, alice!.user)[0]!.body).toMatchObject({ channel: 'C0GENERAL', thread_ts: alice!.message.threadTs });
    expect(ephemeralsTo(slack, bob!.user)[0]!.body.text).toMatch(/^I've asked the experts/);

    const posts = expertPosts(slack);
    expect(posts).toHaveLength(1);
    const text = JSON.stringify(posts[0]!.body.blocks);
    expect(text).toContain(GYM);
    expect(text).toContain('What I said');
    expect(text).toContain('Closest facts in the knowledge base');
    expect(Object.keys(buttonsOf(posts[0]!.body.blocks as Record<string, any>[]))).toEqual([
      'candor_expert_answer',
      'candor_expert_dismiss',
    ]);
    // Bob made two: the post now counts both.
    await waitFor(
      () => slack.callsTo('/api/chat.update').some((c) => JSON.stringify(c.body.blocks).includes('2 people asked')),
      10_000,
      '2 asked',
    );
    // The askers' buttons show it.
    const mine = slack.callsTo('/api/chat.update').filter((c) => c.body.ts === alice!.message.ts);
    expect(buttonsOf(mine.at(-1)!.body.blocks as Record<string, any>[]).candor_ask_expert!.text).toBe('Asked an expert ✓');
  });

  it("a non-expert's Answer gets an ephemeral note, and nothing is opened or stored", async () => {
    const post = expertPostMessage(slack, expertPosts(slack)[0]!);
    const b = await press(STRANGER, 'candor_expert_answer', post);
    const [note] = await waitFor(() => ephemeralsTo(slack, STRANGER).length > 0 && ephemeralsTo(slack, STRANGER), 10_000, 'the note');
    expect(note!.body).toMatchObject({ channel: EXPERTS_CHANNEL, text: expect.stringContaining("Only this knowledge base's experts") });
    await press(STRANGER, 'candor_expert_dismiss', post);
    await waitFor(() => ephemeralsTo(slack, STRANGER).length === 2, 10_000, 'the second note');
    expect(slack.callsTo('/api/views.open').filter((c) => c.body.trigger_id === b.triggerId)).toHaveLength(0);
    expect(await expertFacts(rig)).toEqual([]);
    const [gap] = await rows<{ state: string }>(rig.app.store.db, sql`select state from gaps where question = ${GYM}`);
    expect(gap?.state).toBe('asked');
  });

  it("an expert's answer becomes a fact; each asker is told once in their thread; the question is then answered citing it", async () => {
    const post = expertPostMessage(slack, expertPosts(slack)[0]!);
    // A third asker whose refusal came before the answer, and who presses after it.
    const carol = (await askInSlack(rig, GYM, { user: 'U0CAROL' })).message;
    const b = await press(EXPERT, 'candor_expert_answer', post);
    const opened = await viewOpenedFor(rig, b.triggerId);
    expect(JSON.stringify((opened.body.view as Record<string, unknown>).blocks)).toContain(GYM);

    const empty = modalSubmission({ user: EXPERT, opened, viewId: 'V0ANSWER', values: { answer: { text: { value: '   ' } } } });
    const refused = await sendSigned(rig.eventsUrl, empty, FORM);
    expect(refused.status).toBe(200);
    expect(await refused.json()).toEqual({ response_action: 'errors', errors: { answer: expect.stringContaining('empty') } });
    expect(await expertFacts(rig)).toEqual([]);

    const submit = modalSubmission({
      user: EXPERT,
      name: 'Dana Lee',
      opened,
      viewId: 'V0ANSWER',
      values: { answer: { text: { value: GYM_ANSWER } } },
    });
    expect((await sendSigned(rig.eventsUrl, submit, FORM)).status).toBe(200);
    for (const { message } of asked) await waitFor(() => toldIn(slack, message).length === 1, 10_000, 'the asker told');
    expect(toldIn(slack, asked[0]!.message)[0]!.body.text).toMatch(
      /^An expert answered your question “Is there a gym in the office building\?”: The staff gym/,
    );
    expect(await expertFacts(rig)).toEqual([{ text: GYM_ANSWER, source: `expert:slack:${EXPERT}` }]);
    await waitFor(
      () => slack.callsTo('/api/chat.update').some((c) => JSON.stringify(c.body.blocks).includes('Answered by Dana Lee')),
      10_000,
    );

    // Submitted again (a redelivery, or a second expert): nothing new, and they hear why.
    await sendSigned(rig.eventsUrl, submit, FORM);
    await waitFor(() => ephemeralsTo(slack, EXPERT).some((c) => /already answered/.test(String(c.body.text))), 10_000, 'the note');
    await sleep(300);
    expect(await expertFacts(rig)).toHaveLength(1);
    for (const { message } of asked) expect(toldIn(slack, message)).toHaveLength(1);

    // Carol presses "Ask an expert" on her earlier refusal: she gets the answer at once.
    await press('U0CAROL', 'candor_ask_expert', carol);
    const [note] = await waitFor(() => ephemeralsTo(slack, 'U0CAROL').length > 0 && ephemeralsTo(slack, 'U0CAROL'), 10_000, "Carol's note");
    expect(note!.body.text).toBe(`An expert has already answered this: ${GYM_ANSWER}`);

    const again = await askInSlack(rig, 'Where is the staff gym and when does it open?', { user: 'U0DAVE' });
    expect(JSON.stringify(again.call.body.blocks)).toContain('level 2');
    const [row] = await rows<{ decision: string; evidence: { source: string }[] }>(
      rig.app.store.db,
      sql`select decision, evidence from interactions where event_id = ${again.eventId}`,
    );
    expect(row?.decision).toBe('answer');
    expect(row!.evidence[0]!.source).toMatch(/^expert:/);
    expect(JSON.stringify(again.call.body.blocks)).toMatch(/Answered by an expert on \d{4}-\d{2}-\d{2}/);
  });

  it('a member of an experts user group may mark a question "Not for the KB"; its asker is told', async () => {
    const pet = (await askInSlack(rig, 'Can I bring my dog to the office?', { user: 'U0ERIN' })).message;
    await press('U0ERIN', 'candor_ask_expert', pet);
    const post = await waitFor(() => expertPosts(slack).find((c) => JSON.stringify(c.body.blocks).includes('bring my dog')), 10_000);
    const message = { ...expertPostMessage(slack, post), blocks: post.body.blocks as Record<string, any>[] };
    const forged = `${Number(buttonsOf(message.blocks).candor_expert_dismiss!.value.split('.')[0]) + 100}.AAAAAAAAAAAAAAAAAAAAAA`;
    await press(GROUP_MEMBER, 'candor_expert_dismiss', message, forged);
    await waitFor(() => rig.logs.some((l) => l.message.includes("experts' button carried a value we did not sign")), 10_000);

    await press(GROUP_MEMBER, 'candor_expert_dismiss', message);
    const [told] = await waitFor(() => toldIn(slack, pet).length > 0 && toldIn(slack, pet), 10_000, 'Erin told');
    expect(told!.body.text).toMatch(/outside what this knowledge base covers/);
    const [gap] = await rows<{ state: string; closed_by: string }>(
      rig.app.store.db,
      sql`select state, closed_by from gaps where question = 'Can I bring my dog to the office?'`,
    );
    expect(gap).toEqual({ state: 'out_of_scope', closed_by: `${GROUP_MEMBER} name` });
    const update = slack
      .callsTo('/api/chat.update')
      .filter((c) => c.body.ts === message.ts)
      .at(-1)!;
    expect(JSON.stringify(update.body.blocks)).toContain('Marked not for the knowledge base');
    expect(buttonsOf(update.body.blocks as Record<string, any>[])).toEqual({});
  });
});
