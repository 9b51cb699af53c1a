import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import type { ChatQuestion } from '../../src/ask/chat-ask.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { ATTR } from '../../src/telemetry/attributes.js';
import { rowsFor } from '../channels/kb-fixture.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const LEAVE = 'How many days of annual leave do full-time staff receive?';

/** The chat ask as the composition root wires it (app.chatAsk): the one writer of a chat event's interaction row. */
describe('the chat ask writes its event’s interaction row', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let app: Candor;

  beforeAll(async () => {
    app = await buildCandor(testConfig({ CANDOR_TRACE_CONTENT: 'true' }), { spanProcessors: [processor] });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'default' });
  });
  afterAll(async () => {
    await app?.close();
    files.cleanup();
  });

  const question = (eventId: string, text: string, extra: Partial<ChatQuestion> = {}): ChatQuestion => ({
    channel: 'slack',
    eventId,
    conversationRef: `T0:C0:${eventId}`,
    userHash: 'a'.repeat(32),
    text,
    ...extra,
  });

  it('in one place: the chat fields, the normalised question and the decision the reply carries, in one row', async () => {
    const asked = await app.chatAsk(question('Ev-one', `<@U0BOT> *${LEAVE}*`, { thread: { ref: 'T0:C0:th-1', requireEarlier: false } }));
    expect(asked.followUp).toBe('none');
    expect(asked.reply?.kind).toBe('decision');
    const decision = asked.reply?.kind === 'decision' ? asked.reply.decision : undefined;
    const rows = await rowsFor(app.store.db, 'slack', 'Ev-one');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: decision?.interactionId,
      channel: 'slack',
      eventId: 'Ev-one',
      conversationRef: 'T0:C0:Ev-one',
      userHash: 'a'.repeat(32),
      threadRef: 'T0:C0:th-1',
      question: LEAVE,
      typedQuestion: null,
      status: 'done',
      decision: 'answer',
      answer: decision?.answer,
      traceId: decision?.traceId,
      latencyMs: decision?.latencyMs,
      kbVersion: decision?.kb.version,
    });
    expect(rows[0]?.kbId).not.toBeNull();
    expect(rows[0]?.evidence).toEqual(decision?.evidence);
  });

  it('normalises the text once: the gate judges the question the row holds', async () => {
    // Entities decode in one pass ("&amp;lt;" → "&lt;"); a second pass would decode again ("&lt;" → "<").
    exporter.reset();
    const asked = await app.chatAsk(question('Ev-entity', `${LEAVE} &amp;lt;3`));
    const [row] = await rowsFor(app.store.db, 'slack', 'Ev-entity');
    expect(row?.question).toBe(`${LEAVE} &lt;3`);
    await processor.forceFlush();
    const span = exporter.getFinishedSpans().find((s) => s.name === 'candor.ask');
    expect(span?.attributes[ATTR.question]).toBe(row?.question);
    expect(asked.reply?.kind === 'decision' && asked.reply.decision.traceId).toBe(row?.traceId);
  });

  it('stores the standalone question of a follow-up that the gate judged, beside what was typed', async () => {
    const thread = { ref: 'T0:C0:th-follow', requireEarlier: false };
    await app.chatAsk(question('Ev-lead', LEAVE, { thread }));
    exporter.reset();
    const asked = await app.chatAsk(question('Ev-follow', 'and for managers &amp;lt;3?', { thread }));
    expect(asked.followUp).toBe('borrowed');
    const [row] = await rowsFor(app.store.db, 'slack', 'Ev-follow');
    expect(row).toMatchObject({ typedQuestion: 'and for managers &lt;3?', understoodBy: 'borrowed' });
    await processor.forceFlush();
    const span = exporter.getFinishedSpans().find((s) => s.name === 'candor.ask');
    expect(span?.attributes[ATTR.question]).toBe(row?.question);
  });

  it('answers a retried event into the row its first try claimed: one event, one row', async () => {
    const first = await app.chatAsk(question('Ev-retry', LEAVE));
    const again = await app.chatAsk(question('Ev-retry', LEAVE));
    const rows = await rowsFor(app.store.db, 'slack', 'Ev-retry');
    expect(rows.map((r) => r.id)).toEqual([first.reply?.kind === 'decision' ? first.reply.decision.interactionId : -1]);
    expect(again.reply?.kind === 'decision' && again.reply.decision.interactionId).toBe(rows[0]?.id);
    expect(rows[0]?.status).toBe('done');
  });

  it('closes the row with the reply when there is no decision: rejected for an empty message, failed for a missing KB', async () => {
    const empty = await app.chatAsk(question('Ev-empty', '<@U0BOT> :wave:'));
    expect(empty.reply?.kind).toBe('problem');
    const [rejected] = await rowsFor(app.store.db, 'slack', 'Ev-empty');
    expect(rejected).toMatchObject({ status: 'rejected', question: '', decision: null, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(rejected?.answer).toBe(empty.reply?.kind === 'problem' ? empty.reply.message : undefined);

    const missing = await app.chatAsk(question('Ev-no-kb', LEAVE, { kbs: ['no-such-kb'] }));
    const [failed] = await rowsFor(app.store.db, 'slack', 'Ev-no-kb');
    expect(failed).toMatchObject({ status: 'failed', question: LEAVE, decision: null });
    expect(failed?.answer).toBe(missing.reply?.kind === 'problem' ? missing.reply.message : undefined);
    expect(failed?.answer).toContain('no knowledge base has been loaded');
  });

  it('keeps the facts a refusal considered in its row, as an HTTP ask does, while the reply leaves them out', async () => {
    const refused = 'Is the canteen open for dinner on Saturdays?';
    const asked = await app.chatAsk(question('Ev-refused', refused));
    const decision = asked.reply?.kind === 'decision' ? asked.reply.decision : undefined;
    expect(decision?.decision).toBe('abstain');
    expect(decision).not.toHaveProperty('considered');
    const [row] = await rowsFor(app.store.db, 'slack', 'Ev-refused');
    const byHttp = await app.ask({ question: refused, channel: 'http' });
    const stored = await app.store.db.execute(sql`select considered from interactions where id = ${byHttp.interactionId}`);
    const httpRow = (stored as unknown as { rows: { considered: unknown }[] }).rows[0];
    expect(Array.isArray(row?.considered) && row.considered.length).toBeGreaterThan(0);
    expect(row?.considered).toEqual(httpRow?.considered);
  });

  it('writes no row for a message in a thread the bot never replied in, when only a follow-up would be a question', async () => {
    const asked = await app.chatAsk(question('Ev-chatter', LEAVE, { thread: { ref: 'T0:C0:th-people', requireEarlier: true } }));
    expect(asked).toEqual({ reply: null, followUp: 'not_a_question' });
    expect(await rowsFor(app.store.db, 'slack', 'Ev-chatter')).toEqual([]);
  });
});
