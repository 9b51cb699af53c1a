import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../../src/app/main.js';
import { apiRoutes } from '../../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { createLog } from '../../../src/kernel/log.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../../support/compose.js';

const MAX_BODY = 1024;

/** POST /api/ask and GET /healthz over a real socket, with the real app behind them (as `candor serve` wires it). */
describe('HTTP API', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const logged: string[] = [];
  let app: Candor;
  let server: RunningServer;

  beforeAll(async () => {
    app = await buildCandor(
      testConfig({ CANDOR_KB: 'handbook', CANDOR_MAX_BODY_BYTES: String(MAX_BODY), CANDOR_MAX_QUESTION_CHARS: '200' }),
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    server = await startHttpServer(
      [
        apiRoutes({
          ask: app.ask,
          maxBodyBytes: app.config.http.maxBodyBytes,
          health: [{ name: 'database', check: () => app.store.ping() }],
        }),
      ],
      { host: '127.0.0.1', port: 0, log: createLog('debug', (line) => logged.push(line)) },
    );
  });
  afterAll(async () => {
    await server?.stop(1_000);
    await app?.close();
    files.cleanup();
  });

  const interactionCount = async () =>
    ((await app.store.db.execute(sql`select count(*)::int as n from interactions`)) as unknown as { rows: { n: number }[] }).rows[0]?.n;
  const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${server.url}/api/ask`, { method: 'POST', headers, body });
  const errorOf = async (res: Response) => {
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return ((await res.json()) as { error: { code: string; message: string } }).error;
  };

  it('POST /api/ask answers with the Decision JSON', async () => {
    const before = await interactionCount();
    const res = await post(JSON.stringify({ question: 'How many days of annual leave do full-time staff receive?' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      decision: 'answer',
      answer: expect.stringContaining('18 days of annual leave'),
      kb: { name: 'handbook', version: 1 },
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      latencyMs: expect.any(Number),
    });
    expect(body.evidence).toEqual([
      {
        factId: 'HB-1',
        text: HANDBOOK_FACTS[0].text,
        source: 'handbook#leave',
        score: expect.any(Number),
        title: null,
        section: null,
        url: null,
      },
    ]);
    const reasons = body.reasons as { layer: string; code: string | null; detail: string }[];
    expect(reasons.map((r) => r.layer)).toEqual(['entity', 'evidence', 'answerability', 'focus']);
    expect(body.answerability).toMatchObject({
      score: expect.any(Number),
      threshold: expect.any(Number),
      thresholdSource: 'model',
      model: expect.stringMatching(/@\d+$/),
    });
    for (const reason of reasons) expect(reason).toMatchObject({ code: null, detail: expect.any(String) });
    expect(await interactionCount()).toBe((before ?? 0) + 1);
  });

  it('POST /api/ask refuses in the same shape, with the reason', async () => {
    const res = await post(JSON.stringify({ question: 'Who won the 1998 World Cup?', kb: 'handbook' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      decision: string;
      answer: unknown;
      reasons: { layer: string; code: string; detail: string }[];
      evidence: unknown[];
      refusal: string;
    };
    expect(body.decision).toBe('abstain');
    expect(body.answer).toBeNull();
    expect(body.evidence).toEqual([]);
    expect(body.reasons[0]).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    expect(body.refusal).toEqual(expect.any(String));
  });

  it('an unknown knowledge base is a 404 that says how to ingest one', async () => {
    const res = await post(JSON.stringify({ question: 'How many days of annual leave?', kb: 'nosuch' }));
    expect(res.status).toBe(404);
    const error = await errorOf(res);
    expect(error.code).toBe('kb_not_found');
    expect(error.message).toContain('candor ingest PATH --kb nosuch');
  });

  describe('bad requests get a JSON error and leave no interaction row', () => {
    let before: number | undefined;
    beforeAll(async () => {
      before = await interactionCount();
    });

    it.each([
      ['malformed JSON', '{"question": "How many days', /not valid JSON/],
      ['a body without question', '{"q": "How many days of leave?"}', /question/],
      ['a non-string question', '{"question": 42}', /question must be a string/],
      ['a null question', '{"question": null}', /question/],
      ['a JSON array', '["How many days of leave?"]', /body|question/],
      ['an empty question', '{"question": ""}', /empty/],
      ['a question of only spaces', '{"question": "   \\n\\t "}', /empty/],
      ['a bad kb name', '{"question": "How many days of leave?", "kb": "../etc"}', /kb must be a knowledge base name/],
    ])('400 for %s', async (_case, body, message) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('input_invalid');
      expect(error.message).toMatch(message);
    });

    it('400 for a question over the length limit', async () => {
      const res = await post(JSON.stringify({ question: 'How many days of leave? '.repeat(10) }));
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: 'input_invalid', message: expect.stringMatching(/limit is 200/) });
    });

    it('413 for a body over the limit (declared length)', async () => {
      const res = await post(JSON.stringify({ question: 'x'.repeat(MAX_BODY) }));
      expect(res.status).toBe(413);
      const error = await errorOf(res);
      expect(error.code).toBe('input_invalid');
      expect(error.message).toContain(`${MAX_BODY} bytes`);
    });

    it('413 for a chunked body that grows over the limit', async () => {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/api/ask`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.write('{"question": "');
        req.write('y'.repeat(MAX_BODY));
        req.end('"}');
      });
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'input_invalid' } });
    });

    it.each([
      ['text/plain', { 'content-type': 'text/plain' }],
      ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['no content type', {}],
    ])('415 for %s', async (_case, headers) => {
      const res = await fetch(`${server.url}/api/ask`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ question: 'How many days of leave?' }),
      });
      expect(res.status).toBe(415);
      expect(await errorOf(res)).toMatchObject({
        code: 'input_invalid',
        message: expect.stringContaining('Content-Type: application/json'),
      });
    });

    it('405 for GET /api/ask, with Allow: POST', async () => {
      const res = await fetch(`${server.url}/api/ask`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await errorOf(res)).code).toBe('method_not_allowed');
    });

    it('404 for an unknown path', async () => {
      const res = await fetch(`${server.url}/api/nothing-here`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
      const error = await errorOf(res);
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('/api/nothing-here');
    });

    // Last in this group: none of the requests above reached the ask path's recorder.
    it('wrote no interaction row for any of them', async () => {
      expect(before).toEqual(expect.any(Number));
      expect(await interactionCount()).toBe(before);
    });
  });

  it('GET /healthz is 200 while the store answers', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const wrong = await fetch(`${server.url}/healthz`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('logs no request errors for any of the above (client errors are not server errors)', () => {
    expect(logged.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });
});
