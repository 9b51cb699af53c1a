import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { waitFor, type FakeServer } from '../fake-http.js';
import { EXPERT, expertPostMessage, expertPosts, GYM, GYM_ANSWER, startExpertsRig, toldIn, type ExpertsRig } from './experts-rig.js';
import { sendSigned, type SlackRig } from './slack-harness.js';
import { askInSlack, buttonPress, buttonsOf, FORM, modalSubmission, rows, viewOpenedFor } from './slack-interactions.js';

// A KB whose refusals go to its experts without anyone pressing (CANDOR_EXPERTS autoAsk), over real HTTP.
describe('experts in Slack: a KB that routes refusals itself (autoAsk)', () => {
  let experts: ExpertsRig;
  let slack: FakeServer;
  let rig: SlackRig;

  beforeAll(async () => {
    experts = await startExpertsRig({ autoAsk: true });
    ({ slack, rig } = experts);
  });

  afterAll(() => experts?.close());

  it('posts a refusal to the experts without a press, and an answer reaches the asker', async () => {
    const { message } = await askInSlack(rig, GYM);
    const post = await waitFor(() => expertPosts(slack)[0], 10_000, 'the experts post');
    expect(JSON.stringify(post.body.blocks)).toContain(GYM);
    const [request] = await rows<{ asker: string }>(rig.app.store.db, sql`select asker from gap_requests`);
    expect(request?.asker).toBe('auto');
    // An answer is not routed; a second refusal of the same question joins the first.
    await askInSlack(rig, 'How many days of annual leave do full-time staff get?');
    const other = (await askInSlack(rig, GYM, { user: 'U0OTHER' })).message;
    await waitFor(() => slack.callsTo('/api/chat.update').some((c) => JSON.stringify(c.body.blocks).includes('2 people asked')), 10_000);
    expect(expertPosts(slack)).toHaveLength(1);
    expect(await rows(rig.app.store.db, sql`select asker from gap_requests`)).toEqual([{ asker: 'auto' }, { asker: 'auto' }]);

    const b = buttonPress({
      user: EXPERT,
      actionId: 'candor_expert_answer',
      message: expertPostMessage(slack, post),
      value: buttonsOf(post.body.blocks as Record<string, any>[]).candor_expert_answer!.value,
    });
    await sendSigned(rig.eventsUrl, b.body, FORM);
    const opened = await viewOpenedFor(rig, b.triggerId);
    await sendSigned(
      rig.eventsUrl,
      modalSubmission({ user: EXPERT, opened, viewId: 'V0AUTO', values: { answer: { text: { value: GYM_ANSWER } } } }),
      FORM,
    );
    const [told] = await waitFor(
      () => toldIn(slack, message).length > 0 && toldIn(slack, other).length > 0 && toldIn(slack, message),
      10_000,
      'the askers told',
    );
    expect(told!.body.text).toContain('An expert answered your question');
    expect(toldIn(slack, other)).toHaveLength(1);
  });
});
