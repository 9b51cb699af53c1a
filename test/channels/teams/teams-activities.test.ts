import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ATTR } from '../../../src/telemetry/attributes.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { BOT_ID, post, repliesTo, replyPath, startTeamsRig, teamsActivity, TENANT, type TeamsRig } from './teams-harness.js';

let rig: TeamsRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  rig = await startTeamsRig();
  kb = await ingestFixture(rig.app.store.db);
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

type Card = {
  contentType: string;
  content: { type: string; version: string; body: Array<{ type: string; text: string; weight?: string }> };
};

describe('Teams activities (anonymous development mode)', () => {
  it('warns at start that it runs without authentication', () => {
    expect(rig.channel.anonymous).toBe(true);
    const warning = rig.logs.find((l) => l.level === 'warn' && l.message.startsWith('teams channel runs WITHOUT authentication'));
    expect(warning?.message).toContain('CANDOR_TEAMS_ALLOW_ANONYMOUS=true');
  });

  it('answers a personal chat with an Adaptive Card and its sources, as a reply to the activity', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'What does MediShield Life cover?' });
    const res = await post(rig.messagesUrl, activity);
    expect(res.status).toBe(200);
    const replies = await repliesTo(rig, conversationId, id);
    expect(replies).toHaveLength(1);
    const reply = replies[0]!.body as {
      type: string;
      replyToId: string;
      conversation: { id: string };
      from: { id: string };
      recipient: { id: string };
      attachments: Card[];
    };
    expect(reply).toMatchObject({
      type: 'message',
      replyToId: id,
      conversation: { id: conversationId },
      from: { id: BOT_ID },
      recipient: { id: '29:1asker-user-id' },
    });
    expect(reply.attachments).toHaveLength(1);
    const card = reply.attachments[0]!;
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.type).toBe('AdaptiveCard');
    expect(card.content.version).toBe('1.4');
    // The card's hidden input (its sealed copy, for the feedback buttons) is not text.
    const texts = card.content.body.filter((b) => b.type === 'TextBlock').map((b) => b.text);
    expect(texts[0]).toContain('MediShield Life covers large hospital bills');
    expect(texts.slice(1)).toEqual(['Sources', '1. MediShield Life booklet, p. 3 › MediShield Life coverage', 'Knowledge base default v1']);

    const [row] = await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`);
    expect(row).toMatchObject({
      channel: 'teams',
      status: 'done',
      decision: 'answer',
      question: 'What does MediShield Life cover?',
      conversationRef: `${TENANT}|${conversationId}|${id}`,
    });
    expect(row!.userHash).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers a channel mention in its thread, with the mention stripped before the gate', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, {
      conversationType: 'channel',
      text: 'What is the speed limit on expressways?',
    });
    expect(activity.text).toBe('<at>Candor</at> What is the speed limit on expressways?');
    expect((await post(rig.messagesUrl, activity)).status).toBe(200);
    const [reply] = await repliesTo(rig, conversationId, id);
    expect(conversationId).toContain(';messageid=');
    expect((reply!.body.attachments as Card[])[0]!.content.body[0]!.text).toContain('90 km/h');
    const [row] = await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`);
    expect(row!.question).toBe('What is the speed limit on expressways?');
  });

  it('ignores a channel message that does not mention the bot, and its own messages', async () => {
    const unmentioned = teamsActivity(rig.connector.url, {
      conversationType: 'channel',
      mention: false,
      text: 'What does MediShield Life cover?',
    });
    const own = teamsActivity(rig.connector.url, {
      text: 'What does MediShield Life cover?',
      extra: { from: { id: BOT_ID, name: 'Candor' } },
    });
    for (const a of [unmentioned, own]) {
      expect((await post(rig.messagesUrl, a.activity)).status).toBe(200);
      expect(rig.connector.calls.filter((c) => c.path.includes(encodeURIComponent(a.conversationId)))).toEqual([]);
      expect(await rowsFor(rig.app.store.db, 'teams', `${a.conversationId}|${a.id}`)).toEqual([]);
    }
  });

  it('refuses with "I don\'t know.", the reason and nearby topics', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'What does ADR-0050 say about MediShield Life?' });
    await post(rig.messagesUrl, activity);
    const [reply] = await repliesTo(rig, conversationId, id);
    const body = (reply!.body.attachments as Card[])[0]!.content.body;
    expect(body[0]).toMatchObject({ type: 'TextBlock', text: "I don't know.", weight: 'Bolder' });
    expect(body[1]!.text).toContain('The knowledge base never mentions "ADR-0050".');
    expect(body[1]!.text).toMatch(
      /The knowledge base does cover: “MediShield Life (coverage|deductibles)”; “MediShield Life (coverage|deductibles)”\.$/,
    );
    const [row] = await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`);
    expect(row).toMatchObject({ decision: 'abstain', reason: 'unknown_entity' });
  });

  it('answers a redelivered activity once', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'Do learner drivers need L plates?' });
    const statuses = await Promise.all([post(rig.messagesUrl, activity), post(rig.messagesUrl, activity), post(rig.messagesUrl, activity)]);
    expect(statuses.map((s) => s.status)).toEqual([200, 200, 200]);
    await repliesTo(rig, conversationId, id);
    await new Promise((r) => setTimeout(r, 300));
    expect(rig.connector.callsTo(replyPath(conversationId, id))).toHaveLength(1);
    expect(await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`)).toHaveLength(1);
  });

  it('traces the activity: root span candor.teams.message with candor.channel=teams', async () => {
    const { activity, id, conversationId } = teamsActivity(rig.connector.url, { text: 'What is the speed limit on expressways?' });
    await post(rig.messagesUrl, activity);
    await repliesTo(rig, conversationId, id);
    const [row] = await rowsFor(rig.app.store.db, 'teams', `${conversationId}|${id}`);
    // The server span ends when the response has closed, a moment after the client has read it.
    await waitFor(
      async () => {
        await rig.processor.forceFlush();
        return rig.spans.getFinishedSpans().some((s) => s.name === 'POST /api/messages' && s.spanContext().traceId === row!.traceId);
      },
      5000,
      'the server span to end',
    );
    const spans = rig.spans.getFinishedSpans().filter((s) => s.spanContext().traceId === row!.traceId);
    // The HTTP server span of the activity is the trace's root; the message span is its child.
    const server = spans.find((s) => s.parentSpanContext === undefined);
    expect(server?.name).toBe('POST /api/messages');
    const root = spans.find((s) => s.name === 'candor.teams.message');
    expect(root?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(root?.attributes[ATTR.channel]).toBe('teams');
    expect(root?.attributes['candor.teams.personal']).toBe(true);
    expect(spans.find((s) => s.name === 'candor.ask')?.attributes[ATTR.channel]).toBe('teams');
  });

  it('welcomes on install (conversationUpdate adding the bot), and not when someone else joins', async () => {
    const installed = teamsActivity(rig.connector.url, {
      type: 'conversationUpdate',
      extra: { membersAdded: [{ id: BOT_ID }, { id: '29:1asker-user-id' }] },
    });
    expect((await post(rig.messagesUrl, installed.activity)).status).toBe(200);
    const [welcome] = rig.connector.callsTo(replyPath(installed.conversationId, installed.id));
    expect(welcome!.body).toMatchObject({ type: 'message', text: expect.stringContaining("Hi, I'm Candor.") });
    const joined = teamsActivity(rig.connector.url, { type: 'conversationUpdate', extra: { membersAdded: [{ id: '29:1someone-else' }] } });
    expect((await post(rig.messagesUrl, joined.activity)).status).toBe(200);
    expect(rig.connector.calls.filter((c) => c.path.includes(encodeURIComponent(joined.conversationId)))).toEqual([]);
  });

  it('passes messageReaction activities to the review hook', async () => {
    const added = teamsActivity(rig.connector.url, {
      type: 'messageReaction',
      extra: { reactionsAdded: [{ type: 'like' }], replyToId: 'reply-1' },
    });
    const removed = teamsActivity(rig.connector.url, {
      type: 'messageReaction',
      extra: { reactionsRemoved: [{ type: 'like' }], replyToId: 'reply-1' },
    });
    expect((await post(rig.messagesUrl, added.activity)).status).toBe(200);
    expect((await post(rig.messagesUrl, removed.activity)).status).toBe(200);
    expect(rig.reactions).toEqual([
      {
        kind: 'added',
        reactions: ['like'],
        replyToId: 'reply-1',
        conversationId: added.conversationId,
        userHash: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
      {
        kind: 'removed',
        reactions: ['like'],
        replyToId: 'reply-1',
        conversationId: removed.conversationId,
        userHash: rig.reactions[0]!.userHash,
      },
    ]);
  });

  it('treats "help" and "status" (also after a mention) as commands, not questions', async () => {
    const help = teamsActivity(rig.connector.url, { text: 'help' });
    await post(rig.messagesUrl, help.activity);
    const [helpReply] = rig.connector.callsTo(replyPath(help.conversationId, help.id));
    expect(String(helpReply!.body.text)).toContain('Commands: "status"');
    const status = teamsActivity(rig.connector.url, { conversationType: 'channel', text: ' Status ' });
    await post(rig.messagesUrl, status.activity);
    const [statusReply] = rig.connector.callsTo(replyPath(status.conversationId, status.id));
    expect(String(statusReply!.body.text)).toMatch(
      /^Knowledge base default answers here \([^)]*the default, CANDOR_KB\)\.\n\nKnowledge base \*default\*: version 1, 4 facts from 1 documents\.\nToday \(since 00:00 UTC\): \d+ of \d+ abstained \(\d+\.\d%\)\.$/,
    );
    expect(await rowsFor(rig.app.store.db, 'teams', `${help.conversationId}|${help.id}`)).toEqual([]);
    expect(await rowsFor(rig.app.store.db, 'teams', `${status.conversationId}|${status.id}`)).toEqual([]);
  });

  it('rejects a body that is not an activity', async () => {
    expect(
      (await fetch(rig.messagesUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":' })).status,
    ).toBe(400);
    expect((await fetch(rig.messagesUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2]' })).status).toBe(
      400,
    );
    expect((await fetch(rig.messagesUrl)).status).toBe(405);
  });
});
