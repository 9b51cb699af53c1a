import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../../support/compose.js';
import { sleep, waitFor } from '../fake-http.js';
import { sendSigned, startSlackRig, type SlackRig } from './slack-harness.js';
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

// Askers' 👍/👎 on replies, over real HTTP into the real Bolt app (signed payloads, Web API on the fake server).
const EXPERTS = JSON.stringify([{ kb: 'default', slack: 'C0EXPERTS', people: ['slack:UEXPERT'] }]);

let rig: SlackRig;
const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
let answer: { message: PressedMessage; interactionId: number; value: string };

const interactionOf = (value: string) => Number(value.split('.')[0]);
const feedbackRows = (interactionId: number) =>
  rows<{ kind: string; reason: string | null; comment: string | null; asker: string; event_id: string }>(
    rig.app.store.db,
    sql`select kind, reason, comment, asker, event_id from asker_feedback where interaction_id = ${interactionId} order by id`,
  );
const updatesOf = (ts: string) => rig.slack.callsTo('/api/chat.update').filter((c) => c.body.ts === ts);

beforeAll(async () => {
  rig = await startSlackRig({ env: { CANDOR_EXPERTS: EXPERTS } });
  await ingestPaths(rig.app.store.db, [files.path('handbook.jsonl')], { kb: 'default' });
  const asked = await askInSlack(rig, 'How many days of annual leave do full-time staff get?');
  const value = buttonsOf(asked.message.blocks).candor_helpful!.value;
  answer = { message: asked.message, value, interactionId: interactionOf(value) };
});

afterAll(async () => {
  await rig?.close();
  files.cleanup();
});

describe('asker feedback in Slack', () => {
  it('puts 👍 Helpful / 👎 Not helpful under an answer, and "Ask an expert" under a refusal', async () => {
    expect(answer.message.blocks.at(-1)).toMatchObject({ type: 'actions' });
    const buttons = buttonsOf(answer.message.blocks);
    expect(Object.keys(buttons)).toEqual(['candor_helpful', 'candor_not_helpful']);
    expect(buttons.candor_helpful!.text).toBe('👍 Helpful');
    expect(buttons.candor_not_helpful!.text).toBe('👎 Not helpful');
    expect(answer.value).toMatch(/^\d+\.[\w-]{22}$/);
    const [row] = await rows<{ decision: string }>(
      rig.app.store.db,
      sql`select decision from interactions where id = ${answer.interactionId}`,
    );
    expect(row?.decision).toBe('answer');

    const refused = await askInSlack(rig, 'Is there a gym in the office building?');
    expect(Object.keys(buttonsOf(refused.message.blocks))).toEqual(['candor_ask_expert']);
    expect(buttonsOf(refused.message.blocks).candor_ask_expert!.text).toBe('Ask an expert');
  });

  it('stores a 👍 once when Slack delivers the press twice, and marks the button', async () => {
    const press = buttonPress({ user: 'U0ASKER', actionId: 'candor_helpful', value: answer.value, message: answer.message });
    expect((await sendSigned(rig.eventsUrl, press.body, FORM)).status).toBe(200);
    const update = await waitFor(() => updatesOf(answer.message.ts)[0], 10_000, 'chat.update');
    expect((await sendSigned(rig.eventsUrl, press.body, FORM)).status).toBe(200);
    await sleep(300);
    const stored = await feedbackRows(answer.interactionId);
    expect(stored).toEqual([
      {
        kind: 'helpful',
        reason: null,
        comment: null,
        asker: expect.stringMatching(/^slack:[0-9a-f]{32}$/),
        event_id: `slack:${press.triggerId}`,
      },
    ]);
    expect(stored[0]!.asker).not.toContain('U0ASKER');
    expect(updatesOf(answer.message.ts)).toHaveLength(1);

    const blocks = update.body.blocks as Record<string, any>[];
    expect(buttonsOf(blocks).candor_helpful).toMatchObject({ text: '✓ Helpful', style: 'primary' });
    expect(buttonsOf(blocks).candor_not_helpful).toMatchObject({ text: '👎 Not helpful' });
    expect(JSON.stringify(blocks)).toContain('Thanks — marked helpful.');
    // The answer itself is kept as it was.
    expect(blocks[0]).toEqual(answer.message.blocks[0]);
  });

  it('a 👎 opens a modal for the reason; the reason is stored and the reply is sampled for reviewers', async () => {
    const press = buttonPress({ user: 'U0OTHER', actionId: 'candor_not_helpful', value: answer.value, message: answer.message });
    await sendSigned(rig.eventsUrl, press.body, FORM);
    const opened = await viewOpenedFor(rig, press.triggerId);
    const view = opened.body.view as Record<string, any>;
    expect(view.type).toBe('modal');
    expect(JSON.stringify(view.blocks)).toContain("Didn't answer my question");
    await waitFor(async () => (await feedbackRows(answer.interactionId)).length === 2, 10_000, 'the 👎');
    const update = await waitFor(() =>
      updatesOf(answer.message.ts).find((c) => JSON.stringify(c.body.blocks).includes('marked not helpful')),
    );
    // The KB has experts: an answer found not helpful can go to them.
    expect(buttonsOf(update.body.blocks as Record<string, any>[])).toMatchObject({
      candor_not_helpful: { text: '✓ Not helpful', style: 'primary' },
      candor_ask_expert: { text: 'Ask an expert', value: answer.value },
    });

    const submit = modalSubmission({
      user: 'U0OTHER',
      opened,
      viewId: 'V0REASON1',
      values: {
        reason: {
          reason: { type: 'radio_buttons', selected_option: { value: 'outdated', text: { type: 'plain_text', text: 'Out of date' } } },
        },
        comment: { comment: { type: 'plain_text_input', value: 'Leave went up to 20 days this year.' } },
      },
    });
    const response = await sendSigned(rig.eventsUrl, submit, FORM);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    await sendSigned(rig.eventsUrl, submit, FORM); // redelivered: stored once
    await waitFor(async () => (await feedbackRows(answer.interactionId)).length === 3, 10_000, 'the reason');
    await sleep(300);
    const stored = await feedbackRows(answer.interactionId);
    expect(stored.map((r) => [r.kind, r.reason, r.comment])).toEqual([
      ['helpful', null, null],
      ['not_helpful', null, null],
      ['not_helpful', 'outdated', 'Leave went up to 20 days this year.'],
    ]);
    expect(stored[1]!.asker).toBe(stored[2]!.asker);
    expect(stored[1]!.asker).not.toBe(stored[0]!.asker);

    const samples = await rows<{ stratum: string }>(
      rig.app.store.db,
      sql`select stratum from review_samples where interaction_id = ${answer.interactionId}`,
    );
    expect(samples).toEqual([{ stratum: 'asker_not_helpful' }]);
  });

  it('ignores a press whose value we did not sign, storing nothing', async () => {
    const count = async () => (await rows<{ n: number }>(rig.app.store.db, sql`select count(*)::int as n from asker_feedback`))[0]!.n;
    const before = await count();
    const forged = `${answer.interactionId + 1}.${answer.value.split('.')[1]}`;
    const updates = rig.slack.callsTo('/api/chat.update').length;
    for (const value of [forged, `${answer.interactionId}.AAAAAAAAAAAAAAAAAAAAAA`, 'not-a-value']) {
      const press = buttonPress({ user: 'U0ASKER', actionId: 'candor_not_helpful', value, message: answer.message });
      expect((await sendSigned(rig.eventsUrl, press.body, FORM)).status).toBe(200);
    }
    await waitFor(() => rig.logs.filter((l) => l.message.includes('a value we did not sign')).length === 3, 10_000, 'the warnings');
    expect(await count()).toBe(before);
    expect(rig.slack.callsTo('/api/chat.update')).toHaveLength(updates);
    expect(rig.slack.callsTo('/api/views.open').filter((c) => String(c.body.trigger_id).startsWith('trig-'))).toHaveLength(1);
  });
});
