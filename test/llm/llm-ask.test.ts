import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { startHttpServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { interactions } from '../../src/store/schema.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { completion, factNumber, FAKE_MODEL, reply, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

// The real `openai` client and the real ask path; only the model vendor is faked, at HTTP.
// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const LEAVE = 'How many days of annual leave do full-time staff receive?';
const UNKNOWN = 'What does ADR-0050 say about parking?';

describe('the LLM behind the gate', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let fake: FakeOpenAi;
  let app: Candor;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    const config = testConfig({
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_API_KEY: 'sk-test-not-a-secret',
      CANDOR_CHAT_MODEL: 'gpt-test',
      CANDOR_LLM_TIMEOUT_MS: '400',
      CANDOR_LLM_MAX_RETRIES: '2',
    });
    app = await buildCandor(config, { spanProcessors: [processor] });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    files.cleanup();
  });
  beforeEach(() => {
    fake.server.calls.length = 0;
    exporter.reset();
  });

  const ask = (question: string) => app.ask({ question, kb: 'handbook', channel: 'test' });
  const row = async (id: number | null) =>
    (
      await app.store.db
        .select()
        .from(interactions)
        .where(eq(interactions.id, id as number))
    )[0];

  it('delivers a grounded answer in its own words, citing exactly the facts it used', async () => {
    fake.script((call) => reply(true, 'Full-time staff get 18 days of annual leave each calendar year.', [factNumber(call, '18 days')]));
    const d = await ask(LEAVE);
    expect(d.decision).toBe('answer');
    expect(d.answer).toBe('Full-time staff get 18 days of annual leave each calendar year.');
    expect(d.evidence.map((e) => e.factId)).toEqual(['HB-1']);
    expect(d.generation).toEqual({ model: 'gpt-test', prompt: expect.stringMatching(/^answer@/) });
    // The model saw the question and only the retrieved facts, numbered with sources, and was asked for a JSON schema.
    const [call] = fake.chatCalls();
    const body = call!.body as {
      model: string;
      response_format: { type: string; json_schema: { name: string } };
      messages: { role: string; content: string }[];
    };
    expect(body.model).toBe('gpt-test');
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'grounded_answer' } });
    expect(body.messages[1]!.content).toContain(`Question: ${LEAVE}`);
    expect(body.messages[1]!.content).toMatch(/\[1\] .+ \(source: handbook#\w+\)/);
    expect(body.messages[1]!.content).not.toContain('fire assembly point');
    const stored = await row(d.interactionId);
    expect(stored).toMatchObject({ decision: 'answer', model: 'gpt-test', promptVersion: d.generation!.prompt });
    // The grounding support score is on the verdict, the interaction row and the trace.
    const grounding = d.reasons.find((r) => r.layer === 'grounding');
    expect(grounding).toMatchObject({ pass: true, score: expect.any(Number), threshold: expect.any(Number) });
    expect(grounding!.score!).toBeGreaterThanOrEqual(grounding!.threshold!);
    expect(stored!.groundingSupport).toBeCloseTo(grounding!.score!, 5);
    await processor.forceFlush();
    const root = exporter.getFinishedSpans().find((s) => s.name === 'candor.ask');
    expect(root?.attributes['candor.grounding.support']).toBeCloseTo(grounding!.score!, 5);
  });

  it('abstains as llm_unanswerable when the model says the facts do not answer it', async () => {
    fake.script(reply(false, '', [], 'No fact states the leave entitlement for part-time staff.'));
    const d = await ask(LEAVE);
    expect(d).toMatchObject({ decision: 'abstain', answer: null, evidence: [] });
    expect(d.reasons[0]).toMatchObject({ layer: 'llm', code: 'llm_unanswerable' });
    expect(d.refusal).toContain("The facts I found don't answer this question.");
    expect((await row(d.interactionId))?.reason).toBe('llm_unanswerable');
  });

  it('a draft citing a fact that was not retrieved is withheld, and the sources are quoted instead', async () => {
    fake.script(reply(true, 'Full-time staff get 18 days of annual leave.', [9]));
    const d = await ask(LEAVE);
    expect(d).toMatchObject({ decision: 'answer', confidence: 'medium', refusal: null });
    expect(d.reasons).toContainEqual(
      expect.objectContaining({ layer: 'grounding', pass: false, code: 'ungrounded', detail: expect.stringContaining('[9]') }),
    );
    expect(d.evidence.map((e) => e.factId)).toEqual(['HB-1']);
  });

  it('a fabricated draft becomes the extractive answer from the same evidence, caveated and recorded with the withheld check', async () => {
    fake.script((call) => reply(true, 'Full-time staff get 21 days of annual leave.', [factNumber(call, '18 days')]));
    const d = await ask(LEAVE);
    // The lead fact with its source, as extractive mode answers it, at medium with a caveat that says it quotes.
    expect(d).toMatchObject({ decision: 'answer', confidence: 'medium', refusal: null });
    expect(d.answer).toBe('Full-time staff receive 18 days of annual leave in each calendar year.');
    expect(d.evidence).toEqual([expect.objectContaining({ factId: 'HB-1', source: 'handbook#leave' })]);
    expect(d.caveat).toMatch(/quoted the sources rather than summarising them/);
    expect(d.generation).toEqual({ model: 'gpt-test', prompt: expect.stringMatching(/^answer@/) });
    // Every verdict: the model's, the withheld draft's check (with its support) and why the answer is not high.
    const layers = d.reasons.map((r) => `${r.layer}:${r.code ?? 'pass'}`);
    expect(layers).toEqual(expect.arrayContaining(['llm:pass', 'grounding:ungrounded', 'confidence:draft_withheld']));
    expect(d.reasons.find((r) => r.layer === 'grounding')).toMatchObject({
      pass: false,
      score: 0,
      detail: expect.stringContaining('"21"'),
    });
    // The withheld draft stays out of the reply and the row; the row keeps the fallback answer and the check.
    expect(JSON.stringify(d)).not.toContain('21 days');
    const stored = await row(d.interactionId);
    expect(stored).toMatchObject({ decision: 'answer', confidence: 'medium', reason: null, groundingSupport: 0, model: 'gpt-test' });
    expect(stored!.answer).toBe(d.answer);
    expect(JSON.stringify(stored)).not.toContain('21 days');
    expect(stored!.verdicts).toContainEqual(expect.objectContaining({ code: 'draft_withheld' }));
    await processor.forceFlush();
    const root = exporter.getFinishedSpans().find((s) => s.name === 'candor.ask');
    expect(root?.attributes).toMatchObject({
      'candor.decision': 'answer',
      'candor.reason': 'draft_withheld',
      'candor.grounding.support': 0,
    });
    expect(
      exporter.getFinishedSpans().some((s) => s.name === 'candor.answer' && s.attributes['candor.answer.mode'] === 'quoted_fallback'),
    ).toBe(true);
  });

  it('malformed JSON is invalid_output, and nothing of it reaches the user', async () => {
    fake.script(completion('Sure! Staff get 18 days {answerable: true'));
    const d = await ask(LEAVE);
    expect(d.reasons[0]).toMatchObject({ layer: 'llm', code: 'invalid_output' });
    expect(d.refusal).toContain("I can't answer that right now");
    expect(JSON.stringify({ answer: d.answer, refusal: d.refusal })).not.toContain('Sure!');
    expect((await row(d.interactionId))?.reason).toBe('invalid_output');
  });

  it('output that does not match the schema, or was cut off, is invalid_output', async () => {
    fake.script(completion(JSON.stringify({ answerable: 'yes', answer: 'x', citations: [1] })));
    expect((await ask(LEAVE)).reasons[0]).toMatchObject({ code: 'invalid_output', detail: expect.stringContaining('schema') });
    fake.script((call) =>
      completion(
        JSON.stringify({ answerable: true, reasoning: '', answer: 'Staff get 18 days', citations: [factNumber(call, '18 days')] }),
        { finish: 'length' },
      ),
    );
    expect((await ask(LEAVE)).reasons[0]).toMatchObject({ code: 'invalid_output', detail: expect.stringContaining('cut off') });
  });

  it('a 500 after every retry is llm_unavailable; the client retried', async () => {
    const error = { status: 500, body: { error: { message: 'upstream exploded', type: 'server_error' } } };
    fake.script(error, error, error);
    const d = await ask(LEAVE);
    expect(d.reasons[0]).toMatchObject({ layer: 'llm', code: 'llm_unavailable' });
    expect(fake.chatCalls()).toHaveLength(3); // 1 + CANDOR_LLM_MAX_RETRIES
    expect((await row(d.interactionId))?.reason).toBe('llm_unavailable');
  });

  it('a 429 then success answers, after waiting the Retry-After', async () => {
    fake.script(
      { status: 429, headers: { 'retry-after-ms': '300' }, body: { error: { message: 'slow down', type: 'rate_limit_exceeded' } } },
      (call) => reply(true, 'Full-time staff get 18 days of annual leave.', [factNumber(call, '18 days')]),
    );
    const d = await ask(LEAVE);
    expect(d.decision).toBe('answer');
    const [first, second] = fake.chatCalls();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(280);
  });

  it('a hang past the timeout is llm_unavailable within a bounded time', async () => {
    const hang = { delayMs: 2000, ...reply(true, 'too late', [1]) };
    fake.script(hang, hang, hang);
    const started = Date.now();
    const d = await ask(LEAVE);
    expect(d.reasons[0]).toMatchObject({ code: 'llm_unavailable', detail: expect.stringContaining('in time') });
    // 3 attempts × 400 ms timeout plus backoff: well under the 6 s the hangs would take.
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('a question the hard gate refuses makes no model call', async () => {
    const d = await ask(UNKNOWN);
    expect(d.reasons[0]).toMatchObject({ code: 'unknown_entity' });
    expect(fake.chatCalls()).toHaveLength(0);
    await processor.forceFlush();
    const root = exporter.getFinishedSpans().find((s) => s.name === 'candor.ask');
    expect(root?.attributes['candor.llm.call_avoided']).toBe(true);
  });

  it('falls back to JSON mode when the server refuses a JSON schema', async () => {
    fake.script(
      {
        status: 400,
        body: {
          error: {
            message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
            type: 'invalid_request_error',
          },
        },
      },
      (call) => reply(true, 'Full-time staff get 18 days of annual leave.', [factNumber(call, '18 days')]),
      (call) => reply(true, 'Full-time staff get 18 days of annual leave.', [factNumber(call, '18 days')]),
    );
    expect((await ask(LEAVE)).decision).toBe('answer');
    const formats = fake.chatCalls().map((c) => (c.body.response_format as { type: string }).type);
    expect(formats).toEqual(['json_schema', 'json_object']);
    // Remembered: the next call goes straight to JSON mode.
    expect((await ask(LEAVE)).decision).toBe('answer');
    expect((fake.chatCalls()[2]!.body.response_format as { type: string }).type).toBe('json_object');
  });

  it('each model call is a child span with the GenAI attributes and the token counts the server reported', async () => {
    fake.script((call) =>
      completion(
        JSON.stringify({
          answerable: true,
          reasoning: 'Fact 1.',
          answer: 'Full-time staff get 18 days of annual leave.',
          citations: [factNumber(call, '18 days')],
        }),
        { usage: { input: 321, output: 45 } },
      ),
    );
    await ask(LEAVE);
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans();
    const chat = spans.find((s) => s.name === 'chat gpt-test');
    const answer = spans.find((s) => s.name === 'candor.answer');
    expect(chat?.parentSpanContext?.spanId).toBe(answer?.spanContext().spanId);
    // A call out of the process to the model vendor: a CLIENT span (GenAI conventions).
    expect([chat?.kind, answer?.kind]).toEqual([SpanKind.CLIENT, SpanKind.INTERNAL]);
    expect(chat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': FAKE_MODEL,
      'gen_ai.usage.input_tokens': 321,
      'gen_ai.usage.output_tokens': 45,
      'gen_ai.response.finish_reasons': ['stop'],
      // An OpenAI-compatible server on loopback: the provider is the API it speaks, the host goes to server.*.
      'gen_ai.provider.name': 'openai',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(fake.baseUrl).port),
    });
    // No question or completion text on spans unless CANDOR_TRACE_CONTENT is on.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('annual leave');
  });

  it('model call durations are in seconds with sub-second buckets (a 20 ms call is not read as 2.5 s)', async () => {
    fake.script((call) => reply(true, 'Full-time staff get 18 days of annual leave.', [factNumber(call, '18 days')]));
    await ask(LEAVE);
    const server = await startHttpServer([metricsRoute(app.metrics!)], { host: '127.0.0.1', port: 0, log: app.log });
    const scraped = await (await fetch(`${server.url}/metrics`)).text();
    await server.stop(500);
    expect(scraped).toMatch(/^# UNIT gen_ai_client_operation_duration s$/m);
    expect(scraped).toMatch(/^# UNIT gen_ai_client_token_usage \{token\}$/m);
    const bounds = [...scraped.matchAll(/^gen_ai_client_operation_duration_bucket\{[^}]*le="([^"]+)"/gm)].map((m) => m[1]);
    expect(bounds.slice(0, 4)).toEqual(['0.01', '0.02', '0.04', '0.08']);
    // The loopback fake answers in well under a second: counted in a sub-second bucket.
    const underHalfSecond = Number(/^gen_ai_client_operation_duration_bucket\{[^}]*le="0.64"[^}]*\} (\d+)/m.exec(scraped)?.[1]);
    expect(underHalfSecond).toBeGreaterThan(0);
  });
});
