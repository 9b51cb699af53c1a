import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import type { Decision } from '../../src/ask/decision.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { createLog, redactedPaths } from '../../src/kernel/log.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const API_TOKEN = 'api-token-logs-0123456789abcdef';
const QUESTION = 'How many days of annual leave do full-time staff receive?';

const parse = (lines: readonly string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('log lines', () => {
  it('are one JSON object per line: level name, ISO time, message, fields', () => {
    const lines: string[] = [];
    const log = createLog('info', (line) => lines.push(line));
    log('debug', 'below the threshold');
    log('info', 'review samples', { sampled: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      message: 'review samples',
      sampled: 3,
    });
  });

  it('redact secrets and user text by default, keep user text only when asked to', () => {
    const lines: string[] = [];
    const fields = {
      token: 'xoxb-1-secret',
      headers: { authorization: 'Bearer sk-secret', cookie: 'session=secret', 'set-cookie': 'session=secret' },
      slack: { signingSecret: 'signing-secret' },
      question: QUESTION,
      kb: 'handbook',
    };
    createLog('info', (line) => lines.push(line))('info', 'a request', fields);
    createLog('info', { write: (line) => lines.push(line), userText: true })('info', 'a request', fields);
    const [plain, withText] = parse(lines);
    expect(plain).toMatchObject({
      token: '[redacted]',
      headers: { authorization: '[redacted]', cookie: '[redacted]', 'set-cookie': '[redacted]' },
      slack: { signingSecret: '[redacted]' },
      question: '[redacted]',
      kb: 'handbook',
    });
    expect(withText).toMatchObject({ token: '[redacted]', question: QUESTION });
    expect(lines.join('')).not.toContain('secret"');
    expect(redactedPaths()).toEqual(expect.arrayContaining(['*.password', '*.headers["x-api-key"]']));
  });

  it('serialise an error into its one line: type, a message without query parameters, code and stack frames', () => {
    const lines: string[] = [];
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:8080'), { code: 'EADDRINUSE' });
    createLog('info', (line) => lines.push(line))('error', 'could not listen', { error });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.trimEnd()).not.toContain('\n');
    const [line] = parse(lines);
    expect(line).toMatchObject({
      level: 'error',
      error: { type: 'Error', code: 'EADDRINUSE', message: expect.stringContaining('EADDRINUSE') },
    });
    expect((line!.error as { stack: string }).stack).toMatch(/^at /);
  });

  it('are readable lines in the pretty format (what a terminal gets)', () => {
    const lines: string[] = [];
    createLog('info', { write: (line) => lines.push(line), format: 'pretty' })('warn', 'inbox: could not claim questions', {
      channel: 'slack',
    });
    expect(lines.join('')).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: inbox: could not claim questions \{"channel":"slack"\}\n$/);
  });
});

describe('a log line inside a request', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const lines: string[] = [];
  let app: Candor;
  let server: RunningServer;

  beforeAll(async () => {
    const config = testConfig({ CANDOR_KB: 'handbook', CANDOR_API_TOKEN: API_TOKEN });
    app = await buildCandor(config, { spanProcessors: [processor], log: createLog('debug', (line) => lines.push(line)) });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    const api = apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [], token: config.http.apiToken });
    server = await startHttpServer([api], { host: '127.0.0.1', port: 0, log: app.log });
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  it('carries the trace and span ids of its request; no token and no question text reach the log', async () => {
    const res = await fetch(`${server.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_TOKEN}` },
      body: JSON.stringify({ question: QUESTION }),
    });
    const decision = (await res.json()) as Decision;
    expect(res.status).toBe(200);
    for (let i = 0; i < 50 && !lines.some((l) => l.includes('"message":"request"')); i++) await new Promise((r) => setTimeout(r, 10));
    await processor.forceFlush();

    const request = parse(lines).find((l) => l.message === 'request');
    const serverSpan = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER);
    expect(request).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/api/ask',
      status: 200,
      trace_id: decision.traceId,
      span_id: serverSpan?.spanContext().spanId,
      trace_flags: '01',
    });
    const all = lines.join('');
    expect(all).not.toContain(API_TOKEN);
    expect(all).not.toContain('annual leave');
  });

  it('outside any request carries no trace ids', () => {
    const before = lines.length;
    app.log('info', 'agreement report', { status: 'created' });
    const [line] = parse(lines.slice(before));
    expect(line).not.toHaveProperty('trace_id');
  });
});
