import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../../src/app/main.js';
import { hashUserId } from '../../../src/ask/record-interaction.js';
import { apiRoutes, type Route } from '../../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../../support/compose.js';

// One file of its own: the OpenTelemetry global tracer provider can be registered once per process.

const QUESTION = 'Does the zebracorn allowance cover annual leave?';
const USER = 'UZEBRACORN42';
const QUERY_SECRET = 'query-secret-value-7f3a';

/**
 * A store error under real requests (the interactions table moved away, a
 * failing query inside a route): the database driver's message would carry the
 * question and the user hash as query parameters. Logs and spans say what
 * failed (a SQLSTATE and the operation) and nothing the user typed.
 */
describe('store errors in logs and traces', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const logs: string[] = [];
  let app: Candor;
  let server: RunningServer;

  beforeAll(async () => {
    app = await buildCandor(testConfig({ CANDOR_KB: 'handbook' }), {
      spanProcessors: [processor],
      log: (level, message, fields = {}) => void logs.push(JSON.stringify({ level, message, ...fields })),
    });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    // A route whose query fails with the question among its parameters, as any repository's would.
    const failing: Route = async (req) => {
      if (!req.url?.startsWith('/failing')) return false;
      await app.store.db.execute(sql`select * from no_such_table where question = ${QUESTION} and user_hash = ${USER}`);
      return true;
    };
    server = await startHttpServer([apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [] }), failing], {
      host: '127.0.0.1',
      port: 0,
      log: app.log,
    });
    await app.store.db.execute(sql`alter table interactions rename to interactions_moved`);
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  it('keeps the question, the user hash and query strings out of every log line and span', async () => {
    const asked = await fetch(`${server.url}/api/ask?token=${QUERY_SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: QUESTION }),
    });
    expect(asked.status).toBe(503); // answered, but the row could not be stored
    const direct = await app.ask({ question: QUESTION, kb: 'handbook', channel: 'slack', userId: USER });
    expect(direct.interactionId).toBeNull();
    const failed = await fetch(`${server.url}/failing?token=${QUERY_SECRET}`);
    expect(failed.status).toBe(500);
    await processor.forceFlush();

    const spans = exporter.getFinishedSpans();
    const telemetry = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
    const written = logs.join('\n');
    // What failed is said: the SQLSTATE of a missing table and the statement's verb and table.
    expect(written).toContain('database error 42P01 in insert into interactions');
    expect(written).toContain('database error 42P01 in select');
    expect(written).toContain('"path":"/failing"');
    expect(telemetry).toContain('database error 42P01');
    for (const secret of [QUESTION, 'zebracorn', USER, hashUserId(USER, app.config.telemetry.userHashSalt), QUERY_SECRET, 'params:']) {
      expect(written, secret).not.toContain(secret);
      expect(telemetry, secret).not.toContain(secret);
    }
  });
});
