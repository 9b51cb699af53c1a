import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import type { Decision } from '../../src/ask/decision.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { metricsRoute } from '../../src/channels/http/metrics-route.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

describe('an HTTP server span per request, in the caller’s trace', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let app: Candor;
  let server: RunningServer;

  beforeAll(async () => {
    app = await buildCandor(testConfig({ CANDOR_KB: 'handbook' }), { spanProcessors: [processor] });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    server = await startHttpServer([apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [] }), metricsRoute(app.metrics!)], {
      host: '127.0.0.1',
      port: 0,
      log: app.log,
    });
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });
  beforeEach(() => exporter.reset());

  async function ask(question: string, headers: Record<string, string> = {}): Promise<{ decision: Decision; spans: ReadableSpan[] }> {
    const res = await fetch(`${server.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ question }),
    });
    const decision = (await res.json()) as Decision;
    // The server span ends when the response closes, a moment after the client has the body.
    for (let i = 0; i < 50 && !exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER); i++)
      await new Promise((r) => setTimeout(r, 10));
    await processor.forceFlush();
    return { decision, spans: exporter.getFinishedSpans() };
  }

  it('continues an incoming W3C traceparent: the ask and all its children are in the caller’s trace', async () => {
    const { decision, spans } = await ask('How many days of annual leave do full-time staff receive?', {
      traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
    });
    expect(decision.traceId).toBe(CALLER_TRACE);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([CALLER_TRACE]));
    const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(serverSpan.name).toBe('POST /api/ask');
    expect(serverSpan.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(serverSpan.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/ask',
      'url.path': '/api/ask',
      'http.response.status_code': 200,
    });
    const askSpan = spans.find((s) => s.name === 'candor.ask')!;
    expect(askSpan.parentSpanContext?.spanId).toBe(serverSpan.spanContext().spanId);
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining(['candor.retrieve', 'candor.gate.answerability', 'candor.answer', 'candor.record']),
    );
  });

  it('without a traceparent the server span is the root of a new trace', async () => {
    const { decision, spans } = await ask('What does ADR-0050 say about parking?');
    const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(serverSpan.parentSpanContext).toBeUndefined();
    expect(serverSpan.spanContext().traceId).toBe(decision.traceId);
    expect(decision.traceId).not.toBe(CALLER_TRACE);
  });

  it('a malformed traceparent is ignored, not trusted', async () => {
    const { decision } = await ask('What does ADR-0050 say about parking?', { traceparent: '00-zz-not-a-trace-01' });
    expect(decision.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(decision.traceId).not.toMatch(/^0+$/);
  });

  it('a client error is a span too, with its status; probes and scrapes are not traced', async () => {
    await fetch(`${server.url}/healthz`);
    await fetch(`${server.url}/metrics`);
    const res = await fetch(`${server.url}/api/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(res.status).toBe(400);
    await new Promise((r) => setTimeout(r, 50));
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['POST /api/ask']);
    expect(spans[0]?.attributes['http.response.status_code']).toBe(400);
  });
});
