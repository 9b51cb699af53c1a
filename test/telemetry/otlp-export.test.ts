import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PROCESS_TEST_MS, runCli } from '../channels/run-cli.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

interface Export {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** An OpenTelemetry Collector's OTLP/HTTP receiver, as far as this test needs one: it records what arrives. */
async function startCollector(): Promise<{ url: string; exports: Export[]; close(): Promise<void> }> {
  const exports: Export[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
    res
      .writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' })
      .end(req.headers['content-type']?.includes('json') ? '{}' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The real `candor serve` with the standard OTEL_* variables: asks once with a traceparent, then stops (which flushes the spans). */
async function serveAndAsk(env: Record<string, string>): Promise<void> {
  const server = runCli(['serve'], { ...env, PORT: '0', LOG_LEVEL: 'warn' });
  const url = await server.serving();
  const res = await fetch(`${url}/api/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    body: JSON.stringify({ question: 'How many days of annual leave do full-time staff receive?' }),
  });
  expect(((await res.json()) as { traceId: string }).traceId).toBe(CALLER_TRACE);
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('OTLP export configured by the standard OTEL_* variables', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const dataDir = files.path('data');
  let collector: Awaited<ReturnType<typeof startCollector>>;
  const otel = (more: Record<string, string>) => ({
    CANDOR_DATA_DIR: dataDir,
    CANDOR_KB: 'handbook',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'candor-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci,k8s.pod.name=candor-7d9f',
    OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=s3cret%20value',
    ...more,
  });

  beforeAll(async () => {
    collector = await startCollector();
    // The KB, ingested in this process (the bin's entry point) into a copy of an empty migrated store: the server is what is under test.
    await migratedStore(dataDir);
    const ingest = await candorInProcess(['ingest', files.path('handbook.jsonl'), '--kb', 'handbook'], { CANDOR_DATA_DIR: dataDir });
    expect(ingest.code, ingest.stderr).toBe(0);
  });
  afterAll(async () => {
    await collector?.close();
    files.cleanup();
  });

  it(
    'http/json: the ask’s spans arrive in the caller’s trace, under a SERVER span, with the resource attributes and headers',
    async () => {
      collector.exports.length = 0;
      await serveAndAsk(otel({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }));
      expect(collector.exports.length).toBeGreaterThan(0);
      const sent = collector.exports[0]!;
      expect(sent.path).toBe('/v1/traces');
      expect(sent.headers['content-type']).toMatch(/application\/json/);
      expect(sent.headers['x-collector-key']).toBe('s3cret value');
      type Attr = { key: string; value: { stringValue?: string } };
      type Body = {
        resourceSpans: {
          resource: { attributes: Attr[] };
          scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[] }[];
        }[];
      };
      const bodies = collector.exports.map((e) => JSON.parse(e.body.toString('utf8')) as Body);
      const resource = Object.fromEntries(bodies[0]!.resourceSpans[0]!.resource.attributes.map((a) => [a.key, a.value.stringValue]));
      expect(resource).toMatchObject({ 'service.name': 'candor-test', 'deployment.environment.name': 'ci', 'k8s.pod.name': 'candor-7d9f' });
      const spans = bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      const inTrace = spans.filter((s) => s.traceId === CALLER_TRACE);
      const serverSpan = inTrace.find((s) => s.name === 'POST /api/ask');
      expect(serverSpan).toMatchObject({ kind: 2, parentSpanId: CALLER_SPAN }); // 2 = SERVER in OTLP
      const askSpan = inTrace.find((s) => s.name === 'candor.ask');
      expect(askSpan?.parentSpanId).toBe(serverSpan?.spanId);
      expect(inTrace.map((s) => s.name)).toEqual(expect.arrayContaining(['candor.retrieve', 'candor.answer', 'candor.record']));
    },
    PROCESS_TEST_MS,
  );

  it(
    'http/protobuf (the OpenTelemetry default) sends protobuf to the same receiver',
    async () => {
      collector.exports.length = 0;
      await serveAndAsk(otel({}));
      expect(collector.exports.length).toBeGreaterThan(0);
      const sent = collector.exports[0]!;
      expect(sent.path).toBe('/v1/traces');
      expect(sent.headers['content-type']).toBe('application/x-protobuf');
      // Trace ids travel as 16 raw bytes in protobuf.
      const body = Buffer.concat(collector.exports.map((e) => e.body));
      expect(body.includes(Buffer.from(CALLER_TRACE, 'hex'))).toBe(true);
      expect(body.includes(Buffer.from('deployment.environment.name'))).toBe(true);
    },
    PROCESS_TEST_MS,
  );
});
