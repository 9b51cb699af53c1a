import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { httpRoutes } from '../../src/app/serve.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { loadConfig } from '../../src/config.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { importLabels } from '../../src/review/import-labels.js';
import { agreementDeps } from '../../src/review/judge/agreement-deps.js';
import { runAgreementReport } from '../../src/review/judge/agreement-job.js';
import { currentLabels, labelHistory, setLabel } from '../../src/review/label-store.js';
import { sampleInteractions } from '../../src/review/sample-interactions.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { syntheticReplies } from '../support/imported-replies.js';

const TOKEN = 'console-desk-token-0123456789';
const ALICE = { user: 'alice', password: 'alice reviews daily' };
const BOB = { user: 'bob', password: 'bob only reads here' };
const BENEFITS = [
  { id: 'BN-1', text: 'Dental claims are reimbursed up to $300 in each calendar year.', source: 'benefits#dental' },
  { id: 'BN-2', text: 'Staff may claim half of their gym membership fees, up to $20 per month.', source: 'benefits#gym' },
];
/** Two imported replies built to trip CSV readers: a formula, a comma, quotes and a line break. */
const TRAPS = [
  {
    id: 'trap-1',
    question: '=HYPERLINK("http://evil.example","click"), really?',
    response: '+SUM(1,2)\n-second "line"',
    label: 'no',
    answerable: true,
  },
  { id: 'trap-2', question: '@mention me, please', response: 'A plain, "quoted" reply.', label: 'no', answerable: true },
];
const squeeze = (text: string) => text.replace(/>\s+</g, '><').replace(/\s+/g, ' ');
const basic = (who: { user: string; password: string }) => ({
  authorization: `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}`,
});
const bearer = { authorization: `Bearer ${TOKEN}` };

/** The console as the KB owner's and reviewer's desk, over real HTTP with `candor serve`'s routes. */
describe('the console desk', () => {
  const files = tempFiles({
    'handbook.jsonl': jsonl(HANDBOOK_FACTS),
    'benefits.jsonl': jsonl(BENEFITS),
    'replies.jsonl': jsonl([...syntheticReplies(60), ...TRAPS]),
  });
  let app: Candor;
  let server: RunningServer;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await buildCandor(
      testConfig({
        CANDOR_KB: 'handbook',
        CANDOR_CONSOLE_TOKEN: TOKEN,
        CANDOR_CONSOLE_BASIC_AUTH: `${ALICE.user}:${ALICE.password},${BOB.user}:${BOB.password}`,
        CANDOR_REVIEWERS: 'console:alice,slack:U123',
        CANDOR_TRACE_URL: 'https://tempo.example/explore?trace={traceId}',
      }),
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    await ingestPaths(app.store.db, [files.path('benefits.jsonl')], { kb: 'benefits' });
    const asks: [string, string, string, string][] = [
      ['answered', 'handbook', 'slack', 'How many days of annual leave do full-time staff receive?'],
      ['shuttle', 'handbook', 'slack', 'Is there a shuttle bus from the train station to the office?'],
      ['adr', 'handbook', 'teams', 'What does ADR-0050 say about parking?'],
      ['percent', 'benefits', 'slack', 'Does the 50% rule apply to taxi fares?'],
      ['digits', 'benefits', 'slack', 'Does the 5000 rule apply to taxi fares?'],
      ['underscore', 'benefits', 'teams', 'Where is the a_b claim form kept?'],
      ['nounderscore', 'benefits', 'teams', 'Where is the axb claim form kept?'],
      ['old', 'handbook', 'slack', 'Where is the fire assembly point for the building?'],
    ];
    for (const [key, kb, channel, question] of asks) ids[key] = (await app.ask({ question, kb, channel })).interactionId!;
    // One ask from long ago, one three hours ago: the date range and the hourly buckets have something to find.
    await app.store.db.execute(sql`update interactions set created_at = '2020-01-15T10:00:00Z' where id = ${ids.old}`);
    await app.store.db.execute(sql`update interactions set created_at = now() - interval '3 hours' where id = ${ids.adr}`);
    await importLabels(app.store.db, { annotator: 'policybench', task: 'abstention', file: files.path('replies.jsonl') });
    await sampleInteractions(app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 100, seed: 1 });
    server = await startHttpServer(httpRoutes(app, []), { host: '127.0.0.1', port: 0, log: app.log });
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  const get = (path: string, headers: Record<string, string> = bearer) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  const page = async (path: string, headers: Record<string, string> = bearer) => {
    const res = await get(path, headers);
    expect(res.status, path).toBe(200);
    return squeeze(await res.text());
  };
  const listed = (body: string) => [...body.matchAll(/<tr><td><a href="\/interactions\/(\d+)">/g)].map((m) => Number(m[1]));

  describe('interactions', () => {
    it('lists live channels by default; imported replies only behind source: imported / all', async () => {
      const live = listed(await page('/interactions'));
      expect(live).toHaveLength(8);
      expect(live).toContain(ids.shuttle);
      const imported = await page('/interactions?source=imported');
      expect(listed(imported)).toHaveLength(50); // 62 imported: a first page of 50 …
      expect(imported).toContain('data-testid="older"');
      const second = await page('/interactions?source=imported&page=2');
      expect(listed(second)).toHaveLength(12); // … and the rest on the second, the filter kept in the links
      expect(second).toContain('href="/interactions?source=imported&amp;page=1"');
      expect(listed(await page('/interactions?source=all'))).toHaveLength(50);
    });

    it('searches questions and replies as text: % and _ are literal characters, not wildcards', async () => {
      expect(listed(await page(`/interactions?q=${encodeURIComponent('50%')}`))).toEqual([ids.percent]);
      expect(listed(await page('/interactions?q=a_b'))).toEqual([ids.underscore]);
      expect(listed(await page('/interactions?q=TAXI'))).toEqual([ids.digits, ids.percent]);
      // Replies too: the answer to the leave question says "18 days".
      expect(listed(await page('/interactions?q=18%20days'))).toEqual([ids.answered]);
      expect(await page(`/interactions?q=${encodeURIComponent("'; drop table interactions; --")}`)).toContain('No interactions match.');
    });

    it('filters by a date range (from and to, whole UTC days) and by KB, keeping the filter in the page links', async () => {
      expect(listed(await page('/interactions?from=2020-01-01&to=2020-01-31'))).toEqual([ids.old]);
      expect(listed(await page('/interactions?to=2020-01-15'))).toEqual([ids.old]); // `to` includes its day
      expect(listed(await page('/interactions?from=2020-01-16&kb=handbook'))).toEqual([ids.adr, ids.shuttle, ids.answered]);
      expect(listed(await page('/interactions?from=not-a-date&kb=benefits'))).toHaveLength(4);
    });

    it('exports the current filter as CSV: a header, RFC 4180 quoting, and formula cells defused', async () => {
      const res = await get('/interactions.csv?source=imported&q=trap-1');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="candor-interactions-imported-\d{8}-\d{4}\.csv"$/);
      expect(await csv(res)).toBe(`${HEADER}\r\n`); // ids are not searched: nothing matched, the header alone
      const all = await csv(await get('/interactions.csv?source=imported&q=%22'));
      const lines = all.split('\r\n');
      expect(lines[0]).toBe(HEADER);
      expect(lines).toHaveLength(4); // header, two rows, and the empty string after the last CRLF
      expect(all).toContain(`,"'=HYPERLINK(""http://evil.example"",""click""), really?",`);
      expect(all).toContain(`,"'+SUM(1,2)\n-second ""line""",`);
      expect(all).toContain(`,"A plain, ""quoted"" reply.",`);
      expect(all).toContain(`,"'@mention me, please",`);
      // Live rows with their numbers as numbers (a negative number is a number, not a formula).
      const live = (await csv(await get('/interactions.csv?kb=benefits&decision=abstain'))).split('\r\n');
      expect(live[1]).toMatch(/^\d+,\d{4}-\d\d-\d\dT[\d:.]+Z,(slack|teams),benefits,\d+,/);
    });

    it('exports JSON lines of the same filter, one object per line in the CSV column order', async () => {
      const res = await get('/interactions.jsonl?kb=handbook');
      expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      const rows = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows.map((r) => r.id)).toEqual([ids.old, ids.adr, ids.shuttle, ids.answered]);
      expect(Object.keys(rows[0]!)).toEqual(HEADER.split(',').map((h) => h.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())));
      expect(rows[0]!.createdAt).toBe('2020-01-15T10:00:00.000Z');
      expect(rows[1]).toMatchObject({ kb: 'handbook', decision: 'abstain', reason: 'unknown_entity', channel: 'teams' });
      expect(rows[1]!.answerability).toEqual(expect.any(Number));
    });

    it('shows each reply’s confidence in a column, filters by it, and exports it (CSV and JSON lines)', async () => {
      const stored = await app.store.db.execute(sql`select confidence from interactions where id = ${ids.answered}`);
      const confidence = (stored as unknown as { rows: { confidence: string }[] }).rows[0]!.confidence;
      expect(['high', 'medium', 'low']).toContain(confidence);
      const all = await page('/interactions');
      expect(all).toContain('<th scope="col">confidence</th>');
      const row = all.split('<tr>').find((r) => r.includes(`href="/interactions/${ids.answered}"`))!;
      expect(row).toContain(`data-testid="confidence">${confidence}<`);
      expect(all).toMatch(/<select name="confidence" data-testid="filter-confidence">/);
      const filtered = await page(`/interactions?confidence=${confidence}`);
      expect(listed(filtered)).toContain(ids.answered);
      expect(listed(filtered)).not.toContain(ids.shuttle);
      expect(filtered).toContain(`<option value="${confidence}" selected>`);
      expect(listed(await page('/interactions?confidence=certain'))).toHaveLength(8); // not a level: no filter
      // The export of the same filter carries it (a field of its own, the others unchanged).
      const lines = (await csv(await get(`/interactions.csv?confidence=${confidence}&kb=handbook`))).split('\r\n');
      expect(lines[0]!.split(',')).toContain('confidence');
      expect(lines.slice(1).some((l) => l.startsWith(`${ids.answered},`) && l.includes(`,${confidence},`))).toBe(true);
      const jsonl = await (await get(`/interactions.jsonl?confidence=${confidence}`)).text();
      const rows = jsonl
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; confidence: string });
      expect(rows.find((r) => r.id === ids.answered)?.confidence).toBe(confidence);
      expect(rows.every((r) => r.confidence === confidence)).toBe(true);
    });

    it('a refusal shows the retrieved facts that nearly answered, with scores and why each fell short; the trace id is a link', async () => {
      const body = await page(`/interactions/${ids.shuttle}`);
      expect(body).toContain('Retrieved facts that nearly answered');
      const rows = [...body.matchAll(/<tr data-testid="near-miss">(.*?)<\/tr>/g)].map((m) => m[1]!);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThanOrEqual(5);
      expect(rows[0]).toMatch(/data-testid="near-miss-score">0\.\d+</);
      expect(rows.join('')).toMatch(/does not mention (&quot;|")shuttle/);
      const stored = await app.store.db.execute(sql`select considered from interactions where id = ${ids.shuttle}`);
      const considered = (stored as unknown as { rows: { considered: { score: number; why: string[] }[] }[] }).rows[0]!.considered;
      expect(considered).toHaveLength(rows.length);
      expect(considered[0]).toMatchObject({ factId: expect.stringMatching(/^HB-/), score: expect.any(Number), why: expect.any(Array) });
      const trace =
        /<a href="https:\/\/tempo\.example\/explore\?trace=([0-9a-f]{32})" target="_blank" rel="noopener noreferrer" data-testid="trace-id">\1<\/a>/;
      expect(body).toMatch(trace);
      // An answer keeps none, and shows none.
      expect(await page(`/interactions/${ids.answered}`)).not.toContain('nearly answered');
    });
  });

  describe('overview and the KB selector', () => {
    it('counts by the hour over the last 24 hours, by the day over 30 days, by the week over a year', async () => {
      const hourly = await page('/?days=1');
      expect(hourly).toContain('aria-label="Asks per hour, answered and refused"');
      expect(hourly).toContain('data-testid="bucket">per hour');
      const ticks = (hourly.match(/<text x="[\d.]+" y="\d+" text-anchor="middle">\d\d-\d\d \d\d:00<\/text>/g) ?? []).length;
      expect(ticks).toBe(3 * 8); // three charts of 24 hours, every third hour labelled
      const adrHour = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(11, 13);
      expect(hourly).toMatch(new RegExp(`<title>\\d\\d-\\d\\d ${adrHour}:00 refused: \\d+</title>`));
      expect(await page('/')).toContain('aria-label="Asks per day, answered and refused"');
      expect(await page('/?days=365')).toContain('aria-label="Asks per week, answered and refused"');
      const range = await page('/?from=2020-01-01&to=2020-12-31');
      expect(range).toContain('aria-label="Asks per week, answered and refused"');
      expect(range).toMatch(/data-testid="asks-total">1</);
      expect(await page('/?from=2020-01-15&to=2020-01-16')).toContain('aria-label="Asks per hour, answered and refused"');
    });

    it('a KB chosen in the selector filters the page and stays on every navigation link', async () => {
      const all = await page('/');
      expect(all).toMatch(/data-testid="asks-total">7</); // the 2020 ask is outside the 30 days
      const benefits = await page('/?kb=benefits');
      expect(benefits).toMatch(/data-testid="asks-total">4</);
      expect(benefits).toMatch(
        /<select name="kb" aria-label="Knowledge base"><option value="">all knowledge bases<\/option><option value="benefits" selected>/,
      );
      for (const path of ['/', '/interactions', '/gaps', '/facts', '/review', '/agreement', '/ask'])
        expect(benefits).toContain(`href="${path}?kb=benefits"`);
      expect(await page('/review?kb=benefits')).toContain('<option value="benefits" selected>benefits</option>');
    });
  });

  describe('review', () => {
    let sample = 0;
    let csrf = '';
    it('queues live samples by default, unlabelled first, with the backlog; imported ones one click away', async () => {
      const body = await page('/review');
      expect(body).toMatch(/data-testid="backlog-count">8</);
      expect(body).toMatch(/data-testid="source-live"[^>]*>live <span class="count">8</);
      expect(body).toMatch(/data-testid="source-imported"[^>]*>imported <span class="count">62</);
      expect((body.match(/data-testid="sample" data-labelled="no"/g) ?? []).length).toBe(8);
      const imported = await page('/review?source=imported');
      expect(imported).toMatch(/data-testid="backlog-count">0</); // every imported reply came with its label
      expect(await page('/review?source=imported&decision=unknown&page=2')).toMatch(/data-testid="sample" data-labelled="yes"/);
      const refusals = await page('/review?decision=abstain&kb=handbook&task=abstention');
      expect((refusals.match(/data-testid="sample"/g) ?? []).length).toBe(2);
      // factuality applies to answers only
      const answered = await app.store.db.execute(
        sql`select count(*)::int as n from interactions where decision = 'answer' and channel <> 'import'`,
      );
      const factuality = await page('/review?task=factuality');
      expect(factuality).toContain(`data-testid="backlog-count">${(answered as unknown as { rows: { n: number }[] }).rows[0]!.n}<`);
      const found = await app.store.db.execute(sql`select id from review_samples where interaction_id = ${ids.answered}`);
      sample = Number((found as unknown as { rows: { id: number }[] }).rows[0]!.id);
      expect(factuality).toContain(`href="/review/${sample}?task=factuality"`);
    });

    it('a refusal’s sample shows the retrieved facts that nearly answered, as its interaction does (the criterion reads them)', async () => {
      const found = await app.store.db.execute(sql`select id from review_samples where interaction_id = ${ids.shuttle}`);
      const refused = Number((found as unknown as { rows: { id: number }[] }).rows[0]!.id);
      const body = await page(`/review/${refused}`);
      expect(body).toContain('refused although a retrieved fact states the answer');
      const nearMisses = (html: string) => [...html.matchAll(/<tr data-testid="near-miss">(.*?)<\/tr>/g)].map((m) => m[1]!);
      const shown = nearMisses(body);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown).toEqual(nearMisses(await page(`/interactions/${ids.shuttle}`)));
      expect(shown.join('')).toMatch(/does not mention (&quot;|")shuttle/);
      // An answer's sample has none to show.
      expect(await page(`/review/${sample}`)).not.toContain('nearly answered');
    });

    it('a configured reviewer labels in the console, through the review service, with the page’s CSRF token', async () => {
      const form = await page(`/review/${sample}`, basic(ALICE));
      expect(form).toContain('data-testid="reviewer">console:alice<');
      csrf = /name="csrf" value="([\w-]+)"/.exec(form)?.[1] ?? '';
      expect(csrf).not.toBe('');
      const res = await post(
        `/review/${sample}`,
        { csrf, task: 'abstention', value: 'correct', action: 'set', back_task: 'factuality' },
        basic(ALICE),
      );
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/review/${sample}?task=factuality&done=recorded&done_task=abstention&done_value=correct`);
      expect(await page(res.headers.get('location')!, basic(ALICE))).toContain('data-testid="label-notice"> Label recorded');
      expect(await currentLabels(app.store.db, { sampleIds: [sample] })).toEqual([
        { sampleId: sample, task: 'abstention', annotator: 'console:alice', value: 'correct' },
      ]);
      expect((await labelHistory(app.store.db, sample)).map((e) => e.via)).toEqual(['console']);
      // Off the queue's backlog now.
      expect(await page('/review')).toMatch(/data-testid="backlog-count">7</);
      // The same label again changes nothing; taking it back removes it; then give it again.
      expect(
        (await post(`/review/${sample}`, { csrf, task: 'abstention', value: 'correct' }, basic(ALICE))).headers.get('location'),
      ).toContain('done=unchanged');
      expect(
        (await post(`/review/${sample}`, { csrf, task: 'abstention', value: 'correct', action: 'remove' }, basic(ALICE))).headers.get(
          'location',
        ),
      ).toContain('done=removed');
      expect((await post(`/review/${sample}`, { csrf, task: 'abstention', value: 'correct' }, basic(ALICE))).status).toBe(303);
    });

    it('refuses a post without the CSRF token, or with another one (403), and records nothing', async () => {
      const before = (await labelHistory(app.store.db, sample)).length;
      expect((await post(`/review/${sample}`, { task: 'abstention', value: 'incorrect' }, basic(ALICE))).status).toBe(403);
      expect((await post(`/review/${sample}`, { csrf: `${csrf}x`, task: 'abstention', value: 'incorrect' }, basic(ALICE))).status).toBe(
        403,
      );
      // Bob's token is not Alice's.
      const bobs = /name="csrf" value="([\w-]+)"/.exec(await page('/ask', basic(BOB)))?.[1];
      expect(bobs).toBeDefined();
      expect(bobs).not.toBe(csrf);
      expect((await post(`/review/${sample}`, { csrf: bobs!, task: 'abstention', value: 'incorrect' }, basic(ALICE))).status).toBe(403);
      // The ask box and the facts page check it too.
      expect((await post('/ask', { question: 'How much does parking cost?' }, basic(ALICE))).status).toBe(403);
      expect((await post('/facts', { action: 'retire', fact: '1' }, basic(ALICE))).status).toBe(403);
      expect((await labelHistory(app.store.db, sample)).length).toBe(before);
    });

    it('a session signed in with the token has a CSRF token of its own; a bearer script needs none but names no reviewer', async () => {
      const login = await fetch(`${server.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams({ token: TOKEN, next: '/ask' }).toString(),
      });
      const cookie = { cookie: login.headers.get('set-cookie')!.split(';')[0]! };
      const askForm = await page('/ask', cookie);
      const token = /name="csrf" value="([\w-]+)"/.exec(askForm)?.[1];
      expect(token).toBeDefined();
      expect((await post('/ask', { question: 'How much does a staff parking permit cost?' }, cookie)).status).toBe(403);
      expect((await post('/ask', { csrf: token!, question: 'How much does a staff parking permit cost?' }, cookie)).status).toBe(200);
      expect(await page('/ask')).not.toContain('name="csrf"'); // bearer
      const byScript = await post(`/review/${sample}`, { task: 'abstention', value: 'incorrect' }, bearer);
      expect(byScript.status).toBe(403);
      expect(await byScript.text()).toContain('shared console token, which names nobody');
    });

    it('a console user not listed as console:NAME is told how to become a reviewer; wrong task or label is a 400', async () => {
      const bobsPage = await page(`/review/${sample}`, basic(BOB));
      expect(bobsPage).toContain('data-testid="not-a-reviewer"');
      expect(bobsPage).not.toContain('data-testid="label-abstention-correct"');
      const bobs = /name="csrf" value="([\w-]+)"/.exec(await page('/ask', basic(BOB)))![1]!;
      const refused = await post(`/review/${sample}`, { csrf: bobs, task: 'abstention', value: 'incorrect' }, basic(BOB));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('add console:bob to CANDOR_REVIEWERS');
      expect((await post(`/review/${sample}`, { csrf, task: 'abstention', value: 'maybe' }, basic(ALICE))).status).toBe(400);
      expect((await post(`/review/${sample}`, { csrf, task: 'nonsense', value: 'correct' }, basic(ALICE))).status).toBe(400);
      expect((await post('/review/999999', { csrf, task: 'abstention', value: 'correct' }, basic(ALICE))).status).toBe(404);
    });

    it('the agreement page lists the disagreements with question, reply, each rater and the judge’s reason, the confusion matrix and per-class figures', async () => {
      await setLabel(app.store.db, {
        sampleId: sample,
        task: 'abstention',
        annotator: 'llm:strict@1',
        value: 'incorrect',
        via: 'judge',
        explanation: 'The cited fact does not state the number of leave days for part-time staff.',
      });
      const run = await runAgreementReport(agreementDeps(app), 'manual:desk');
      expect(run.status).toBe('created');
      const report = run.status === 'created' ? run.report : null;
      const task = report!.tasks.find((t) => t.task === 'abstention')!;
      expect(task.humans).toEqual(['console:alice', 'import:policybench']);
      const body = await page('/agreement');
      expect(body).toContain('console:alice, import:policybench');
      const rows = [...body.matchAll(/<tr data-testid="disagreement">(.*?)<\/tr>/g)].map((m) => m[1]!);
      const rule = task.judges.find((j) => j.judge === 'rule:abstention@1')!;
      expect(rows).toHaveLength(rule.disagreements.length + 1);
      const llm = rows.find((r) => r.includes('llm:strict@1'))!;
      expect(llm).toContain('How many days of annual leave do full-time staff receive?');
      expect(llm).toContain('18 days');
      expect(llm).toContain('<span class="mono">console:alice</span>: correct');
      expect(llm).toContain('The cited fact does not state the number of leave days for part-time staff.');
      expect(rows.find((r) => r.includes('rule:abstention@1'))).toMatch(
        /The reply (abstains|answers) \(.+\); the right decision was to (abstain|answer)\./,
      );
      expect(body).toMatch(/<table class="matrix" data-testid="confusion">/);
      expect(body).toMatch(/data-testid="per-class">.*<th scope="row">correct<\/th><td class="num">\d+<\/td>/);
      // One KB's items only.
      expect(await page('/agreement?kb=benefits')).toContain('data-testid="no-disagreements"');
    });
  });

  it('CANDOR_TRACE_URL must be an http(s) URL with {traceId} in it, checked at start-up', () => {
    expect(() => loadConfig({ CANDOR_TRACE_URL: 'https://tempo.example/trace/' })).toThrow(/CANDOR_TRACE_URL/);
    expect(() => loadConfig({ CANDOR_TRACE_URL: 'javascript:alert({traceId})' })).toThrow(/CANDOR_TRACE_URL/);
    expect(loadConfig({ CANDOR_TRACE_URL: 'http://jaeger:16686/trace/{traceId}' }).console.traceUrl).toBe(
      'http://jaeger:16686/trace/{traceId}',
    );
  });

  /** A CSV body without its byte-order mark, which must be there (spreadsheets read UTF-8 by it). */
  async function csv(res: Response): Promise<string> {
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return bytes.subarray(3).toString('utf8');
  }

  function post(path: string, form: Record<string, string>, headers: Record<string, string>) {
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams(form).toString(),
    });
  }
});

const HEADER =
  'id,created_at,channel,kb,kb_version,question,typed_question,decision,expected_decision,reason,confidence,answer,answerability,top_score,latency_ms,model,trace_id';
