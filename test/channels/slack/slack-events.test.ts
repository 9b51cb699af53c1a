import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ATTR } from '../../../src/telemetry/attributes.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { BOT_USER, sendSigned, sign, slackEvent, startSlackRig, TEAM, type SlackRig } from './slack-harness.js';

let rig: SlackRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  rig = await startSlackRig();
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

function postsFor(channel: string, ts: string) {
  return rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === channel && (c.body.thread_ts ?? '') === ts);
}

describe('Slack events over HTTP', () => {
  it('answers an app_mention in the thread of the question, with the sources as a context block', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    const res = await sendSigned(rig.eventsUrl, ev.body);
    expect(res.status).toBe(200);
    const [post] = await waitFor(() => postsFor(ev.channel, ev.ts).length > 0 && postsFor(ev.channel, ev.ts), 5000, 'chat.postMessage');
    expect(post!.body.thread_ts).toBe(ev.ts);
    expect(post!.body.channel).toBe('C0GENERAL');
    expect(post!.headers.authorization).toBe('Bearer xoxb-test-token');
    const blocks = post!.body.blocks as Array<Record<string, any>>;
    expect(blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    expect(blocks[0]!.text.text).toContain('MediShield Life covers large hospital bills');
    // The sources close the reply; under them, the asker's 👍/👎 (slack-feedback.test.ts).
    const context = blocks.at(-2)!;
    expect(context.type).toBe('context');
    expect(blocks.at(-1)).toMatchObject({
      type: 'actions',
      elements: [{ action_id: 'candor_helpful' }, { action_id: 'candor_not_helpful' }],
    });
    expect(context.elements.map((e: { text: string }) => e.text)).toEqual([
      '*Sources*',
      // Only the fact that answers: the deductible fact shares "MediShield Life" but says nothing of what it covers.
      '[1] MediShield Life booklet, p. 3 › MediShield Life coverage',
      'Knowledge base default v1',
    ]);
    expect(post!.body.text).toContain('MediShield Life covers large hospital bills');

    const [row] = await waitFor(async () => {
      const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
      return rows[0]?.status === 'done' && rows;
    });
    expect(row).toMatchObject({
      channel: 'slack',
      eventId: ev.eventId,
      conversationRef: `T0TEAM:C0GENERAL:${ev.ts}`,
      question: 'What does MediShield Life cover?',
      decision: 'answer',
      status: 'done',
      kbVersion: 1,
    });
    expect(row!.userHash).toMatch(/^[0-9a-f]{32}$/);
    expect(row!.userHash).not.toContain('U0ASKER');
    expect(row!.kbId).not.toBeNull();
    expect(row!.evidence).toHaveLength(1);
  });

  it('traces the message: the root span carries candor.channel, the ask is in the same trace as the stored row', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What is the speed limit on expressways?` });
    await sendSigned(rig.eventsUrl, ev.body);
    const [row] = await waitFor(async () => {
      const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
      return rows[0]?.status === 'done' && rows;
    });
    await waitFor(() => postsFor(ev.channel, ev.ts).length === 1);
    // The message span ends just after the reply is posted: wait for it, not only for the post.
    await waitFor(
      async () => {
        await rig.processor.forceFlush();
        const ended = rig.spans
          .getFinishedSpans()
          .filter((s) => s.spanContext().traceId === row!.traceId)
          .map((s) => s.name);
        return ended.includes('candor.slack.message') && ended.includes('POST /slack/events');
      },
      5000,
      'the message and server spans to end',
    );
    const spans = rig.spans.getFinishedSpans().filter((s) => s.spanContext().traceId === row!.traceId);
    // The HTTP server span of the delivery is the trace's root; handling the event (after the ack) continues it.
    const server = spans.find((s) => s.parentSpanContext === undefined);
    expect(server?.name).toBe('POST /slack/events');
    const root = spans.find((s) => s.name === 'candor.slack.message');
    expect(root?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(root?.attributes[ATTR.channel]).toBe('slack');
    expect(root?.attributes['candor.event.id']).toBe(ev.eventId);
    expect(root?.attributes['candor.event.duplicate']).toBe(false);
    const names = spans.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['candor.claim', 'candor.ask', 'candor.retrieve', 'candor.record', 'candor.deliver']));
    const ask = spans.find((s) => s.name === 'candor.ask');
    expect(ask?.attributes[ATTR.channel]).toBe('slack');
    expect(ask?.attributes[ATTR.decision]).toBe('answer');
    // No question text or raw user id in telemetry unless CANDOR_TRACE_CONTENT is on.
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).not.toContain('speed limit');
    expect(everything).not.toContain('U0ASKER');
  });

  it('answers a direct message beside the question (no thread), and inside the thread when asked in one', async () => {
    const top = slackEvent({ type: 'message', text: 'What is the speed limit on expressways?' });
    await sendSigned(rig.eventsUrl, top.body);
    const [post] = await waitFor(() => {
      const p = rig.slack
        .callsTo('/api/chat.postMessage')
        .filter((c) => c.body.channel === top.channel && String(c.body.text).includes('90 km/h'));
      return p.length > 0 && p;
    });
    expect(post!.body.thread_ts).toBeUndefined();
    expect(post!.body.channel).toBe('D0DIRECT');

    const threaded = slackEvent({ type: 'message', text: 'Do learner drivers need L plates?', threadTs: '1700000000.000001' });
    await sendSigned(rig.eventsUrl, threaded.body);
    const [reply] = await waitFor(
      () => postsFor(threaded.channel, '1700000000.000001').length > 0 && postsFor(threaded.channel, '1700000000.000001'),
    );
    expect(String(reply!.body.text)).toContain('L plates');
    const [row] = await rowsFor(rig.app.store.db, 'slack', threaded.eventId);
    expect(row?.conversationRef).toBe('T0TEAM:D0DIRECT:1700000000.000001');
  });

  it('refuses in plain words with the reason and nearby topics, and stores the abstention', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does ADR-0050 say about MediShield Life?` });
    await sendSigned(rig.eventsUrl, ev.body);
    const [post] = await waitFor(() => postsFor(ev.channel, ev.ts).length > 0 && postsFor(ev.channel, ev.ts));
    const blocks = post!.body.blocks as Array<Record<string, any>>;
    expect(blocks).toHaveLength(1);
    const text: string = blocks[0]!.text.text;
    expect(text.startsWith('*I don\'t know.* The knowledge base never mentions "ADR-0050".')).toBe(true);
    // The sections of the facts it retrieved that share a word with the question.
    expect(text).toMatch(
      /\nThe knowledge base does cover: “MediShield Life (coverage|deductibles)”; “MediShield Life (coverage|deductibles)”\.$/,
    );
    const [row] = await waitFor(async () => {
      const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
      return rows[0]?.status === 'done' && rows;
    });
    expect(row).toMatchObject({ decision: 'abstain', reason: 'unknown_entity' });
    expect(row!.answer).toContain('never mentions');
  });

  it('tells the person when the message holds no question, and records it as rejected', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> :wave:` });
    await sendSigned(rig.eventsUrl, ev.body);
    const [post] = await waitFor(() => postsFor(ev.channel, ev.ts).length > 0 && postsFor(ev.channel, ev.ts));
    expect(post!.body.text).toBe('The question is empty. Ask me something in words.');
    const [row] = await waitFor(async () => {
      const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
      return rows[0]?.status === 'rejected' && rows;
    });
    expect(row).toMatchObject({ question: '', decision: null, answer: 'The question is empty. Ask me something in words.' });
  });

  it('ignores bots, its own messages, edits, other subtypes and channel messages that do not mention it', async () => {
    const ignored = [
      slackEvent({ text: 'What does MediShield Life cover?', extra: { bot_id: 'B0OTHER' } }),
      slackEvent({ text: 'What does MediShield Life cover?', user: BOT_USER }),
      slackEvent({ text: 'What does MediShield Life cover?', extra: { edited: { user: 'U0ASKER', ts: '1700000000.000002' } } }),
      slackEvent({
        type: 'message',
        text: 'What does MediShield Life cover?',
        channel: 'D0IGNORED',
        extra: { subtype: 'message_changed' },
      }),
      slackEvent({ type: 'message', text: 'What does MediShield Life cover?', channel: 'C0GENERAL', extra: { channel_type: 'channel' } }),
    ];
    for (const ev of ignored) expect((await sendSigned(rig.eventsUrl, ev.body)).status).toBe(200);
    const sentinel = slackEvent({ text: `<@${BOT_USER}> Do learner drivers need L plates?` });
    await sendSigned(rig.eventsUrl, sentinel.body);
    await waitFor(() => postsFor(sentinel.channel, sentinel.ts).length === 1);
    await new Promise((r) => setTimeout(r, 150));
    for (const ev of ignored) {
      expect(
        rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === ev.ts || c.body.channel === 'D0IGNORED'),
      ).toEqual([]);
      expect(await rowsFor(rig.app.store.db, 'slack', ev.eventId)).toEqual([]);
    }
  });
});

describe('Slack request verification', () => {
  async function rejected(res: Response, eventId: string, status: number) {
    expect(res.status).toBe(status);
    await new Promise((r) => setTimeout(r, 100));
    expect(await rowsFor(rig.app.store.db, 'slack', eventId)).toEqual([]);
  }

  it('rejects a forged signature with 401 and records nothing', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    const ts = Math.floor(Date.now() / 1000);
    const forged = (await import('./slack-harness.js')).sign(ev.body, ts, 'not-the-signing-secret');
    await rejected(await sendSigned(rig.eventsUrl, ev.body, { timestamp: ts, signature: forged }), ev.eventId, 401);
  });

  it('rejects a body altered after signing with 401', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    const ts = Math.floor(Date.now() / 1000);
    const signature = (await import('./slack-harness.js')).sign(ev.body, ts);
    await rejected(
      await sendSigned(rig.eventsUrl, ev.body.replace('MediShield', 'MediSh1eld'), { timestamp: ts, signature }),
      ev.eventId,
      401,
    );
  });

  it('rejects a correctly signed request older than five minutes with 401', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    await rejected(await sendSigned(rig.eventsUrl, ev.body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }), ev.eventId, 401);
  });

  it('rejects a correctly signed request dated more than five minutes ahead, or at no real time, with 401', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    await rejected(await sendSigned(rig.eventsUrl, ev.body, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 }), ev.eventId, 401);
    for (const timestamp of ['Infinity', 'NaN', '1e10', '-1', '']) {
      const res = await fetch(rig.eventsUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': sign(ev.body, 0) },
        body: ev.body,
      });
      expect(res.status, timestamp).toBe(401);
    }
  });

  it.each([
    ['null', 'null', 'application/json'],
    ['an array', '[{"type":"event_callback"}]', 'application/json'],
    ['a number', '42', 'application/json'],
    ['an object of no known type', '{"hello":"world"}', 'application/json'],
    ['a form payload of null', 'payload=null', 'application/x-www-form-urlencoded'],
  ])('answers a correctly signed body that is %s with 400 at once', async (_name, body, contentType) => {
    const res = await sendSigned(rig.eventsUrl, body, { contentType });
    expect(res.status).toBe(400);
  });

  it('acknowledges a correctly signed event_callback without an event, and stores nothing', async () => {
    const before = rig.logs.length;
    const res = await sendSigned(rig.eventsUrl, JSON.stringify({ type: 'event_callback', event_id: 'Ev-no-event', team_id: TEAM }));
    expect(res.status).toBe(200);
    expect(await rowsFor(rig.app.store.db, 'slack', 'Ev-no-event')).toEqual([]);
    expect(rig.logs.slice(before).some((l) => l.message.includes('not acknowledged within 3 seconds'))).toBe(false);
  });

  it('rejects a request without signature headers with 401', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    const res = await fetch(rig.eventsUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ev.body });
    await rejected(res, ev.eventId, 401);
  });

  it('rejects a correctly signed malformed body with 400', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    const body = ev.body.slice(0, -7);
    await rejected(await sendSigned(rig.eventsUrl, body), ev.eventId, 400);
  });

  it('answers the url_verification challenge and refuses GET', async () => {
    const body = JSON.stringify({
      token: 'x',
      challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      type: 'url_verification',
    });
    const res = await sendSigned(rig.eventsUrl, body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
    const get = await fetch(rig.eventsUrl);
    expect(get.status).toBe(405);
  });
});

describe('Slack retries', () => {
  it('answers an event delivered three times (X-Slack-Retry-Num) exactly once', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> How much is the MediShield Life deductible for a B2 ward?` });
    const responses = await Promise.all([
      sendSigned(rig.eventsUrl, ev.body),
      sendSigned(rig.eventsUrl, ev.body, { retryNum: 1 }),
      sendSigned(rig.eventsUrl, ev.body, { retryNum: 2 }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    await waitFor(() => postsFor(ev.channel, ev.ts).length === 1);
    await waitFor(
      () => rig.logs.filter((l) => l.message === 'duplicate delivery ignored' && l.fields.eventId === ev.eventId).length === 2,
      5000,
      'two duplicates',
    );
    expect(postsFor(ev.channel, ev.ts)).toHaveLength(1);
    expect(String(postsFor(ev.channel, ev.ts)[0]!.body.text)).toContain('$1,500');
    const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'done', decision: 'answer' });

    // A late retry, after the answer went out, changes nothing either.
    expect((await sendSigned(rig.eventsUrl, ev.body, { retryNum: 3 })).status).toBe(200);
    await waitFor(() => rig.logs.filter((l) => l.message === 'duplicate delivery ignored' && l.fields.eventId === ev.eventId).length === 3);
    expect(postsFor(ev.channel, ev.ts)).toHaveLength(1);
    expect(await rowsFor(rig.app.store.db, 'slack', ev.eventId)).toHaveLength(1);
  });
});

describe('Slack normalisation before the gate', () => {
  async function storedQuestion(text: string): Promise<string> {
    const ev = slackEvent({ text });
    await sendSigned(rig.eventsUrl, ev.body);
    const [row] = await waitFor(async () => {
      const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
      return rows[0]?.status === 'done' && rows;
    });
    await waitFor(() => postsFor(ev.channel, ev.ts).length === 1);
    return row!.question;
  }

  it('strips user mentions (with and without a label) and @here', async () => {
    expect(await storedQuestion(`<@${BOT_USER}> <!here> what does <@U0OTHER|maria> think MediShield Life covers?`)).toBe(
      'what does think MediShield Life covers?',
    );
  });

  it('keeps a link label and unwraps a bare link', async () => {
    expect(
      await storedQuestion(
        `<@${BOT_USER}> What does <https://www.cpf.gov.sg/medishield|MediShield Life> cover, per <https://example.org/booklet>?`,
      ),
    ).toBe('What does MediShield Life cover, per https://example.org/booklet?');
  });

  it('removes emoji codes and emoji characters', async () => {
    expect(await storedQuestion(`<@${BOT_USER}> :thinking_face: What does MediShield Life cover? 🏥👍 :pray:`)).toBe(
      'What does MediShield Life cover?',
    );
  });

  // Skin-tone modifiers (U+1F3FB–U+1F3FF) are not Extended_Pictographic: stripped explicitly.
  it('removes emoji with a skin-tone modifier', async () => {
    expect(await storedQuestion(`<@${BOT_USER}> What does MediShield Life cover? 👍🏽`)).toBe('What does MediShield Life cover?');
  });

  it('removes Slack formatting (bold, italic, strike, code) and decodes entities', async () => {
    expect(await storedQuestion(`<@${BOT_USER}> What does *MediShield Life* _really_ ~not~ cover &amp; \`pay\`?`)).toBe(
      'What does MediShield Life really not cover & pay?',
    );
  });
});
