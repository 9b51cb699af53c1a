import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { createAsk, type Ask } from '../../src/ask/ask-service.js';
import type { Decision } from '../../src/ask/decision.js';
import { createInteractionRecorder } from '../../src/ask/record-interaction.js';
import { GATE_LAYER_NAMES } from '../../src/core/gate/gate.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { interactions } from '../../src/store/schema.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const ANSWERED = 'How many days of annual leave do full-time staff receive?';
const REFUSED = 'What is the notice period for resignation?';
const USER = 'U-SECRET-USER-42';

/** One span per gate layer that runs by default (the cosine rule is off), in the order they decide. */
const GATE_SPANS = GATE_LAYER_NAMES.filter((name) => name !== 'relevance').map((name) => `candor.gate.${name}`);

describe('one trace per ask', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let app: Candor;

  beforeAll(async () => {
    app = await buildCandor(testConfig(), { spanProcessors: [processor] });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    files.cleanup();
  });

  /** Asks once and returns the decision with the finished spans of its trace. */
  async function traced(ask: Ask, question: string): Promise<{ decision: Decision; spans: ReadableSpan[]; root: ReadableSpan }> {
    exporter.reset();
    const decision = await ask({ question, kb: 'handbook', channel: 'test', userId: USER });
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans();
    const roots = spans.filter((s) => s.parentSpanContext === undefined);
    expect(roots.map((s) => s.name)).toEqual(['candor.ask']);
    return { decision, spans, root: roots[0] as ReadableSpan };
  }

  const childNames = (spans: ReadableSpan[], root: ReadableSpan) =>
    spans.filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId).map((s) => s.name);

  async function storedRow(decision: Decision) {
    expect(decision.interactionId).toEqual(expect.any(Number));
    const [row] = await app.store.db
      .select()
      .from(interactions)
      .where(eq(interactions.id, decision.interactionId as number));
    return row;
  }

  it('has a span for each layer: the crisp rules, the answerability score, then the focus rule', () => {
    expect(GATE_SPANS).toEqual(['candor.gate.entity', 'candor.gate.evidence', 'candor.gate.answerability', 'candor.gate.focus']);
  });

  it('an answer: root candor.ask with retrieve, every gate layer, answer and record as children', async () => {
    const { decision, spans, root } = await traced(app.ask, ANSWERED);
    expect(decision.decision).toBe('answer');

    expect(childNames(spans, root)).toEqual(['candor.retrieve', ...GATE_SPANS, 'candor.answer', 'candor.record']);
    // One trace, and it is the one the Decision and the stored row name.
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([decision.traceId]));
    expect(decision.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect((await storedRow(decision))?.traceId).toBe(decision.traceId);

    expect(root.attributes).toMatchObject({
      'candor.decision': 'answer',
      'candor.confidence': decision.confidence,
      'candor.top_score': decision.answerability?.features.relevance,
      'candor.answerability.score': decision.answerability?.score,
      'candor.answerability.threshold': decision.answerability?.threshold,
      'candor.answerability.threshold_source': 'model',
      'candor.answerability.model': decision.answerability?.model,
      'candor.answerability.feature.coverage': decision.answerability?.features.coverage,
      'candor.answerability.feature.passage_margin': decision.answerability?.features.passageMargin,
      'candor.evidence_count': decision.evidence.length,
      'candor.kb.version': 1,
      'candor.kb.name': 'handbook',
      'candor.channel': 'test',
      'candor.question.length': ANSWERED.length,
    });
    expect(decision.evidence.length).toBeGreaterThan(0);
    expect(['high', 'medium']).toContain(decision.confidence);
    expect((await storedRow(decision))?.confidence).toBe(decision.confidence);
    expect(root.attributes['candor.reason']).toBeUndefined();

    const retrieve = spans.find((s) => s.name === 'candor.retrieve');
    expect(retrieve?.attributes).toMatchObject({ 'candor.retrieve.top_k': 5, 'candor.retrieve.excluded': 0 });
    expect(retrieve?.attributes['candor.retrieve.hits']).toEqual(expect.any(Number));
    const answerability = spans.find((s) => s.name === 'candor.gate.answerability');
    expect(answerability?.attributes).toMatchObject({
      'candor.gate.layer': 'answerability',
      'candor.gate.pass': true,
      'candor.gate.score': decision.answerability?.score,
      'candor.gate.threshold': decision.answerability?.threshold,
    });
  });

  it('a refusal: no answer span, and the root says why', async () => {
    const { decision, spans, root } = await traced(app.ask, REFUSED);
    expect(decision.decision).toBe('abstain');
    const reason = decision.reasons[0]?.code;
    expect(reason).toEqual(expect.any(String));

    expect(childNames(spans, root)).toEqual(['candor.retrieve', ...GATE_SPANS, 'candor.record']);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([decision.traceId]));
    expect(await storedRow(decision)).toMatchObject({ traceId: decision.traceId, decision: 'abstain', reason, confidence: 'low' });

    expect(root.attributes).toMatchObject({
      'candor.decision': 'abstain',
      'candor.confidence': 'low',
      'candor.reason': reason,
      'candor.evidence_count': 0,
      'candor.kb.version': 1,
      'candor.channel': 'test',
    });
    expect(root.attributes['candor.top_score']).toEqual(expect.any(Number));
    // The deciding layer's span carries the same reason.
    const failing = spans.filter((s) => s.name.startsWith('candor.gate.') && s.attributes['candor.gate.pass'] === false);
    expect(failing.map((s) => s.attributes['candor.reason'])).toContain(reason);
  });

  it('keeps the question text and user id out of every span by default', async () => {
    expect(app.config.telemetry.traceContent).toBe(false);
    for (const question of [ANSWERED, REFUSED]) {
      const { spans } = await traced(app.ask, question);
      const values = spans.flatMap((s) => Object.values(s.attributes).map(String));
      expect(values.length).toBeGreaterThan(10);
      expect(values.filter((v) => v.includes(question) || v.includes('annual leave') || v.includes('notice period'))).toEqual([]);
      expect(values.filter((v) => v.includes(USER))).toEqual([]);
      expect(spans.some((s) => 'candor.question' in s.attributes)).toBe(false);
    }
  });

  it('puts the question text in the root span with CANDOR_TRACE_CONTENT=true (never the raw user id)', async () => {
    const config = testConfig({ CANDOR_TRACE_CONTENT: 'true' });
    expect(config.telemetry.traceContent).toBe(true);
    // The ask path as buildCandor wires it, over the same store and telemetry, with this setting.
    const ask = createAsk({
      config,
      indexes: app.indexes,
      recorder: createInteractionRecorder(app.store.db, config.telemetry.userHashSalt),
    });
    const { root, spans } = await traced(ask, ANSWERED);
    expect(root.attributes['candor.question']).toBe(ANSWERED);
    const values = spans.flatMap((s) => Object.values(s.attributes).map(String));
    expect(values.filter((v) => v.includes(USER))).toEqual([]);
  });
});
