import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { hashUserId } from '../../src/ask/record-interaction.js';
import { createFeedbackService } from '../../src/feedback/feedback-service.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { runJudge } from '../../src/review/judge/judge-run.js';
import { addJudgeSpec } from '../../src/review/judge/judge-specs.js';
import { removeLabel, setLabel } from '../../src/review/label-store.js';
import { reviewSamples } from '../../src/store/schema.js';
import { configureEvaluationEvents, emitEvaluationResult } from '../../src/telemetry/evaluation-events.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const SALT = 'evaluation-pepper';
const QUESTION = 'How many days of annual leave do full-time staff receive?';

type OtlpValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: OtlpAttribute[];
  events?: { name: string; attributes: OtlpAttribute[] }[];
}

/** An OpenTelemetry Collector's OTLP/HTTP receiver, as far as this test needs one: it keeps the JSON bodies posted to /v1/traces. */
async function startCollector(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.url === '/v1/traces') bodies.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const spansOf = (bodies: readonly string[]): OtlpSpan[] =>
  bodies.flatMap((body) =>
    (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );

const valueOf = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue));
const attributes = (list: readonly OtlpAttribute[]) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** Each `gen_ai.evaluation.result` exported, with the trace and parent of the span it came on. */
function evaluations(bodies: readonly string[]) {
  return spansOf(bodies).flatMap((span) =>
    (span.events ?? [])
      .filter((e) => e.name === 'gen_ai.evaluation.result')
      .map((e) => ({ traceId: span.traceId, parentSpanId: span.parentSpanId, span: span.name, ...attributes(e.attributes) })),
  );
}

describe('labels, judge verdicts and asker feedback go to the ask’s trace (gen_ai.evaluation.result over OTLP)', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let processor: SimpleSpanProcessor;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let app: Candor;

  beforeAll(async () => {
    collector = await startCollector();
    processor = new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }));
    app = await buildCandor(testConfig({ CANDOR_KB: 'handbook', CANDOR_USER_HASH_SALT: SALT }), { spanProcessors: [processor] });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    await collector?.close();
    files.cleanup();
  });
  beforeEach(() => void (collector.bodies.length = 0));

  async function askAndSample(): Promise<{ traceId: string; interactionId: number; sampleId: number }> {
    const decision = await app.ask({ question: QUESTION, channel: 'slack', userId: 'U0ASKER' });
    const [sample] = await app.store.db
      .insert(reviewSamples)
      .values({ interactionId: decision.interactionId!, stratum: 'answered' })
      .returning({ id: reviewSamples.id });
    return { traceId: decision.traceId, interactionId: decision.interactionId!, sampleId: sample!.id };
  }

  it('a reviewer’s label, an LLM judge’s verdict and a 👎 arrive in the ask’s trace, with no user id or user text', async () => {
    const { traceId, interactionId, sampleId } = await askAndSample();
    const db = app.store.db;
    await setLabel(db, { sampleId, task: 'abstention', annotator: 'slack:U0REVIEWER', value: 'correct', via: 'reaction' });
    const spec = await addJudgeSpec(db, {
      name: 'strict',
      task: 'abstention',
      criteria: 'correct when the cited facts state the answer to what was asked',
      outcomes: ['correct', 'incorrect'],
      model: 'test-model',
    });
    const reasoning = 'The reply on annual leave cites a fact about part-time staff';
    expect((await runJudge(db, spec, async () => ({ label: 'incorrect', reasoning }))).judged).toBe(1);
    await createFeedbackService(db, SALT).record({
      interactionId,
      platform: 'slack',
      user: 'U0ASKER',
      kind: 'not_helpful',
      reason: 'outdated',
      comment: 'My manager says it is twenty now',
    });
    await processor.forceFlush();

    const spans = spansOf(collector.bodies);
    expect(spans.find((s) => s.name === 'candor.ask')?.traceId).toBe(traceId);
    const found = evaluations(collector.bodies);
    expect(found).toHaveLength(3);
    expect(new Set(found.map((e) => e.traceId))).toEqual(new Set([traceId]));
    expect(new Set(found.map((e) => e.span))).toEqual(new Set(['candor.evaluation']));
    expect(found).toEqual([
      expect.objectContaining({
        'gen_ai.evaluation.name': 'abstention',
        'gen_ai.evaluation.score.label': 'correct',
        'gen_ai.evaluation.score.value': 1,
        'candor.evaluation.annotator': `slack:${hashUserId('U0REVIEWER', SALT)}`,
        'candor.evaluation.annotator.type': 'human',
        'candor.evaluation.via': 'reaction',
        'candor.evaluation.action': 'set',
        'candor.interaction.id': interactionId,
      }),
      expect.objectContaining({
        'gen_ai.evaluation.name': 'abstention',
        'gen_ai.evaluation.score.label': 'incorrect',
        'gen_ai.evaluation.score.value': 0,
        'candor.evaluation.annotator': 'llm:strict@1',
        'candor.evaluation.annotator.type': 'llm_judge',
        'candor.evaluation.via': 'judge',
      }),
      expect.objectContaining({
        'gen_ai.evaluation.name': 'asker_feedback',
        'gen_ai.evaluation.score.label': 'not_helpful',
        'gen_ai.evaluation.score.value': 0,
        'gen_ai.evaluation.explanation': 'Out of date',
        'candor.evaluation.annotator': `slack:${hashUserId('U0ASKER', SALT)}`,
        'candor.evaluation.annotator.type': 'asker',
      }),
    ]);
    // The judge's reasoning can quote the question: without CANDOR_TRACE_CONTENT it stays out.
    expect(found[1]).not.toHaveProperty('gen_ai.evaluation.explanation');
    // All evaluations of one interaction share one parent in its trace.
    expect(new Set(found.map((e) => e.parentSpanId)).size).toBe(1);
    const exported = collector.bodies.join('');
    for (const secret of ['U0REVIEWER', 'U0ASKER', 'twenty', 'annual leave']) expect(exported).not.toContain(secret);
  });

  it('a removed label is an evaluation with action "remove"; a label already held emits nothing', async () => {
    const { traceId, sampleId } = await askAndSample();
    const change = { sampleId, task: 'dontknowness', annotator: 'cli:alice', value: '4', via: 'terminal' as const };
    expect(await setLabel(app.store.db, change)).toBe('recorded');
    expect(await setLabel(app.store.db, change)).toBe('unchanged');
    expect(await removeLabel(app.store.db, change)).toBe('removed');
    await processor.forceFlush();
    expect(evaluations(collector.bodies)).toEqual([
      expect.objectContaining({ traceId, 'gen_ai.evaluation.score.value': 4, 'candor.evaluation.action': 'set' }),
      expect.objectContaining({ traceId, 'gen_ai.evaluation.score.label': '4', 'candor.evaluation.action': 'remove' }),
    ]);
  });

  it('parents to the evaluated span when it is known; keeps a comment only with CANDOR_TRACE_CONTENT; skips untraced rows', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const spanId = 'b7ad6b7169203331';
    const result = { name: 'asker_feedback', scoreLabel: 'not_helpful', annotator: 'slack:abc', annotatorType: 'asker' as const };
    configureEvaluationEvents({ traceContent: true, hashUser: (id) => hashUserId(id, SALT) });
    try {
      expect(emitEvaluationResult({ interactionId: 7, traceId, spanId }, { ...result, explanation: 'Wrong', userText: 'it is 20' })).toBe(
        true,
      );
    } finally {
      configureEvaluationEvents({ traceContent: false, hashUser: (id) => hashUserId(id, SALT) });
    }
    expect(emitEvaluationResult({ interactionId: 8, traceId: null }, result)).toBe(false);
    await processor.forceFlush();
    expect(evaluations(collector.bodies)).toEqual([
      expect.objectContaining({ traceId, parentSpanId: spanId, 'gen_ai.evaluation.explanation': 'Wrong: it is 20' }),
    ]);
  });
});
