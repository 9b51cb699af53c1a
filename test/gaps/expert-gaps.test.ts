import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { hashUserId } from '../../src/ask/record-interaction.js';
import type { RunningServer } from '../../src/channels/http/http-server.js';
import { gapsAnswer, gapsDismiss } from '../../src/cli/gaps-commands.js';
import { kbConfirm, kbFacts, kbRetire } from '../../src/cli/kb-commands.js';
import { commandHelp } from '../../src/cli/program.js';
import { formatGaps } from '../../src/cli/report-gaps.js';
import { createFeedbackService } from '../../src/feedback/feedback-service.js';
import { createExpertDesk } from '../../src/gaps/expert-desk.js';
import type { ExpertFactView } from '../../src/gaps/expert-facts-list.js';
import { kbGapReport, type GapReport } from '../../src/gaps/kb-gaps.js';
import { listFacts } from '../../src/kb/expert-facts.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { startConsole } from '../support/console-server.js';
import { GAP_SEED, GAP_SEED_ASKS } from '../support/gap-questions.js';
import { migratedStore } from '../support/migrated-store.js';

const TOKEN = 'expert-gaps-console-token-0123456789';
const SALT = 'expert-gaps-salt';
const EXPERTS = JSON.stringify([{ kb: 'handbook', people: ['cli:dana'], reconfirmDays: 30 }]);
const GYM_ANSWER = 'Staff get 20% off membership at FitWell gyms; show your staff card.';
const ANSWERABLE = 'How many days of annual leave do full-time staff receive?';
const SEED = GAP_SEED;
const ASKS = GAP_SEED_ASKS;
const user = (i: number) => `U${i % 5}`;
/** Markup with the layout whitespace collapsed, and none kept next to a tag. */
const squeeze = (html: string) => html.replace(/\s+/g, ' ').replace(/> /g, '>').replace(/ </g, '<');

/**
 * Gaps closed from the CLI (as experts without chat do) and seen in the console: one data directory,
 * seeded in process, three CLI runs against it (through the bin's entry point, in process too), then the same
 * store opened again in process.
 */
describe('closing KB gaps from the CLI, and seeing them in the console', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const dataDir = files.path('data');
  const env = {
    CANDOR_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    CANDOR_KB: 'handbook',
    CANDOR_EXPERTS: EXPERTS,
    CANDOR_USER_HASH_SALT: SALT,
  };
  const ids = { gym: 0, pet: 0, shuttle: 0, answered: 0 };
  let seeded: GapReport;

  beforeAll(async () => {
    await migratedStore(dataDir);
    const app = await buildCandor(testConfig(env), { telemetry: false });
    try {
      await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
      for (const [i, question] of ASKS.entries()) await app.ask({ question, kb: 'handbook', channel: 'slack', userId: user(i) });
      ids.answered = (await app.ask({ question: ANSWERABLE, kb: 'handbook', channel: 'slack', userId: 'U0ASKER' })).interactionId!;
      seeded = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 30 });
      for (const term of ['gym', 'pet', 'shuttle'] as const) ids[term] = seeded.groups.find((g) => g.question === SEED[term])!.id;
      // Askers press "Ask an expert" on the gym and pet gaps (the shuttle gap stays open).
      const desk = createExpertDesk({
        db: app.store.db,
        indexes: app.indexes,
        experts: app.config.experts.kbs,
        secret: SALT,
        log: app.log,
      });
      for (const term of ['gym', 'pet'] as const) {
        const interactionId = seeded.groups.find((g) => g.id === ids[term])!.examples[0]!.interactionId;
        const target = { platform: 'slack', channel: 'C0ASKERS', threadTs: '1700000000.000100' };
        expect(await desk.askExpert({ interactionId, asker: 'slack:asker', target, via: 'button' })).toMatchObject({ kind: 'asked' });
      }
      const feedback = createFeedbackService(app.store.db, SALT);
      await feedback.record({ interactionId: ids.answered, platform: 'slack', user: 'U0HAPPY', kind: 'helpful' });
      await feedback.record({
        interactionId: ids.answered,
        platform: 'slack',
        user: 'U0UNHAPPY',
        kind: 'not_helpful',
        reason: 'outdated',
        comment: 'It is 20 days since <b>January</b>',
      });
    } finally {
      await app.close();
    }
  }, 120_000);
  afterAll(() => files.cleanup());

  it('starts with three open gaps of ten refusals and five askers each', () => {
    expect(seeded.states).toEqual({ open: 3, asked: 0, answered: 0, out_of_scope: 0 });
    expect(seeded.groups.map((g) => [g.count, g.askers, g.state])).toEqual([
      [10, 5, 'open'],
      [10, 5, 'open'],
      [10, 5, 'open'],
    ]);
  });

  let cliFact = 0;
  it('`candor gaps answer` answers a gap as a listed expert: a new fact in a new KB version; askers are told by the server', async () => {
    const run = await candorInProcess(
      ['gaps', 'answer', String(ids.gym), '--text', GYM_ANSWER, '--as', 'dana', '--kb', 'handbook', '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ outcome: 'answered', kb: 'handbook', gapId: ids.gym, factId: expect.any(Number), version: 2 });
    cliFact = printed.factId as number;
  }, 60_000);

  it('`candor gaps dismiss` by someone CANDOR_EXPERTS does not list closes nothing and exits 1 saying so', async () => {
    const run = await candorInProcess(['gaps', 'dismiss', String(ids.pet), '--as', 'eve'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"eve" is not an expert of knowledge base "handbook"');
    expect(run.stderr).toContain('CANDOR_EXPERTS does not list "cli:eve"');
    expect(run.stdout).toBe('');
  }, 60_000);

  it('`candor kb facts --source expert --json` lists the expert fact with who gave it and when it is due', async () => {
    const run = await candorInProcess(['kb', 'facts', '--source', 'expert', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { kb: string; facts: ExpertFactView[] };
    expect(printed.kb).toBe('handbook');
    expect(printed.facts).toEqual([
      expect.objectContaining({
        id: cliFact,
        text: GYM_ANSWER,
        source: 'expert:cli:dana',
        author: 'dana',
        status: 'active',
        addedInVersion: 2,
        retiredInVersion: null,
        dueAt: expect.any(String),
      }),
    ]);
    const due = new Date(printed.facts[0]!.dueAt!).getTime() - new Date(printed.facts[0]!.confirmedAt!).getTime();
    expect(due).toBe(30 * 86_400_000);
  }, 60_000);

  it('help pages document the new commands', () => {
    expect(commandHelp('gaps answer')).toMatch(/^Usage: candor gaps answer \[options\] <gapId>/);
    for (const option of ['--text <text>', '--as <name>', '--kb <name>', '--json']) expect(commandHelp('gaps answer')).toContain(option);
    expect(commandHelp('gaps')).toContain('CANDOR_EXPERTS_DELIVER_MS');
    expect(commandHelp('kb retire')).toMatch(/^Usage: candor kb retire \[options\] <factId>/);
    expect(commandHelp('kb confirm')).toMatch(/^Usage: candor kb confirm \[options\] <factId>/);
    expect(commandHelp('kb confirm')).toContain('--text <text>');
    expect(commandHelp('report gaps')).toMatch(/open, asked/);
  });

  describe('then, in process on the same store', () => {
    let app: Candor;
    let server: RunningServer;
    const out: string[] = [];
    const print = (text: string) => void out.push(text);
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const page = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: bearer });
      expect(res.status, path).toBe(200);
      return squeeze(await res.text());
    };
    const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
        body: new URLSearchParams(form).toString(),
      });

    beforeAll(async () => {
      app = await buildCandor(testConfig({ ...env, CANDOR_CONSOLE_TOKEN: TOKEN }), { telemetry: false });
      server = await startConsole(app, { defaultKb: 'handbook', expertDays: () => 30 });
    });
    afterAll(async () => {
      await server?.stop(500);
      await app?.close();
    });

    it('a gap already closed, a gap of another KB, a gap that does not exist: each closes nothing, with a clear reason', async () => {
      await expect(gapsAnswer(app, { gapId: String(ids.gym), text: 'Something else', as: 'dana' }, print)).rejects.toThrow(
        `Gap ${ids.gym} was already answered by dana; nothing changed.`,
      );
      await expect(gapsAnswer(app, { gapId: String(ids.pet), text: 'Anything', as: 'dana', kb: 'other' }, print)).rejects.toThrow(
        `Gap ${ids.pet} belongs to knowledge base "handbook", not "other".`,
      );
      await expect(gapsDismiss(app, { gapId: '99999', as: 'dana' }, print)).rejects.toThrow('There is no gap 99999.');
      await expect(gapsAnswer(app, { gapId: String(ids.pet), text: ' ', as: 'dana' }, print)).rejects.toThrow(
        'gaps answer needs --text TEXT',
      );
      await expect(gapsDismiss(app, { gapId: String(ids.pet), as: 'two words' }, print)).rejects.toThrow('--as NAME');
      expect(out).toEqual([]);
    });

    it('`candor gaps dismiss` by a listed expert marks the gap out of scope (--json prints the outcome)', async () => {
      expect(await gapsDismiss(app, { gapId: String(ids.pet), as: 'dana', json: true }, print)).toBe(0);
      expect(JSON.parse(out.pop()!)).toEqual({ outcome: 'dismissed', kb: 'handbook', gapId: ids.pet });
      await expect(gapsDismiss(app, { gapId: String(ids.pet), as: 'dana' }, print)).rejects.toThrow(
        `Gap ${ids.pet} was already marked out of scope by dana`,
      );
    });

    it('`candor report gaps` shows each gap’s id, state, fact, askers and first/last asked, with a states line', async () => {
      const report = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 30 });
      expect(report.states).toEqual({ open: 1, asked: 0, answered: 1, out_of_scope: 1 });
      expect(report.answeredShare).toBeCloseTo(10 / 30, 6);
      const gym = report.groups.find((g) => g.id === ids.gym)!;
      expect(gym).toMatchObject({ state: 'answered', factId: cliFact, askers: 5, requests: 1, answer: { text: GYM_ANSWER, by: 'dana' } });
      const text = formatGaps(report);
      expect(text).toMatch(/^KB gaps in "handbook" \(version 2\), last 30 days: 30 refusals, 3 distinct questions, 3 gaps on 3 topics$/m);
      expect(text).toContain('States: 1 open, 0 asked, 1 answered, 1 out of scope; 33.3% of these refusals are answered by experts');
      expect(text).toMatch(
        new RegExp(
          `^ +gap ${ids.gym} · answered by fact ${cliFact} \\(dana\\) · 5 askers, 1 asked for an expert · first asked \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d, last \\d{4}`,
          'm',
        ),
      );
      expect(text).toContain(`     answer: ${GYM_ANSWER}`);
      expect(text).toMatch(new RegExp(`^ +gap ${ids.pet} · out of scope on \\d{4}-\\d\\d-\\d\\d · 5 askers`, 'm'));
      expect(text).toMatch(new RegExp(`^ +gap ${ids.shuttle} · open · 5 askers · first asked`, 'm'));
      expect(text).toContain('Close a gap: candor gaps answer GAP_ID --text TEXT --as NAME');
    });

    it('the console’s gap view shows the states, the answered share, and each gap’s id, state, askers and answer', async () => {
      const html = await page('/gaps?kb=handbook');
      expect(html).toContain('data-testid="state-count-open">1<');
      expect(html).toContain('data-testid="state-count-asked">0<');
      expect(html).toContain('data-testid="state-count-answered">1<');
      expect(html).toContain('data-testid="state-count-out_of_scope">1<');
      expect(html).toContain('data-testid="answered-share">33.3%<');
      const sections = html.split('data-testid="gap-group"').slice(1);
      expect(sections).toHaveLength(3);
      const section = (id: number) => sections.find((s) => s.includes(`data-testid="gap-id">gap ${id}<`))!;
      expect(section(ids.gym)).toContain('class="badge state-answered" data-testid="gap-state">answered<');
      expect(section(ids.gym)).toContain(`data-testid="gap-answer-text">${GYM_ANSWER}<`);
      expect(section(ids.gym)).toContain(`data-testid="gap-fact">${cliFact}<`);
      expect(section(ids.gym)).toContain('data-testid="gap-answer-by">dana<');
      expect(section(ids.gym)).toContain('data-testid="gap-askers">5<');
      expect(section(ids.gym)).toMatch(/data-testid="gap-first-asked">\d{4}-\d\d-\d\d \d\d:\d\d UTC</);
      expect(section(ids.gym)).toMatch(/data-testid="gap-last-asked">\d{4}-\d\d-\d\d \d\d:\d\d UTC</);
      expect(section(ids.pet)).toContain('data-testid="gap-state">out of scope<');
      expect(section(ids.shuttle)).toContain('data-testid="gap-state">open<');
      expect(section(ids.shuttle)).toContain(`candor gaps answer ${ids.shuttle} --text … --as NAME`);
      // Each gap is a subject of its own here (one topic per gap in the report): no topic list repeats them.
      expect(seeded.topics.map((t) => t.gapIds.length)).toEqual([1, 1, 1]);
      expect(html).not.toContain('data-testid="gap-topic-group"');
      expect(html).toContain('data-testid="no-gap-topics">No topic groups two or more gaps yet');
      // The state filter shows one state's gaps only.
      expect((await page('/gaps?kb=handbook&state=answered')).split('data-testid="gap-group"')).toHaveLength(2);
    });

    it('an interaction shows its askers’ feedback (kind, reason, comment, time) under hashed ids only', async () => {
      const html = await page(`/interactions/${ids.answered}`);
      const rows = html.split('data-testid="feedback-row"').slice(1);
      expect(rows).toHaveLength(2);
      const unhappy = rows.find((r) => r.includes('not helpful'))!;
      expect(unhappy).toContain(`slack:${hashUserId('U0UNHAPPY', SALT)}`);
      expect(unhappy).toContain('data-testid="feedback-reason">Out of date<');
      expect(unhappy).toContain('data-testid="feedback-comment">It is 20 days since &lt;b&gt;January&lt;/b&gt;<');
      expect(unhappy).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(rows.find((r) => r.includes(`slack:${hashUserId('U0HAPPY', SALT)}`))).toContain('data-testid="feedback-kind">helpful<');
      expect(html).not.toMatch(/U0UNHAPPY|U0HAPPY|U0ASKER/);
      expect(await page(`/interactions/${seeded.groups[0]!.examples[0]!.interactionId}`)).toContain('data-testid="feedback-none"');
    });

    it('the overview shows the feedback rate over its window: replies with feedback of the replies that could be rated, helpful vs not', async () => {
      // Replies over the HTTP API, the CLI and the console's ask box have no 👍/👎 buttons: they are not in the denominator.
      for (const channel of ['http', 'cli', 'console']) await app.ask({ question: ANSWERABLE, kb: 'handbook', channel });
      const html = await page('/?days=7');
      expect(html).toContain('data-testid="feedback-rate">3.2%<'); // 1 of 31 Slack replies
      expect(html).toContain('data-testid="feedback-replies">1 of 31<');
      expect(html).toContain('Slack and Teams replies: the only ones with 👍/👎 buttons');
      expect(html).toContain('data-testid="feedback-helpful">1<');
      expect(html).toContain('data-testid="feedback-not-helpful">1<');
    });

    let confirmed = 0;
    it('`candor kb confirm` edits a fact as a listed expert (a new fact replaces it); others are refused', async () => {
      await expect(kbConfirm(app, { factId: String(cliFact), as: 'eve', text: 'No discount.' }, print)).rejects.toThrow(
        'CANDOR_EXPERTS does not list "cli:eve"',
      );
      await expect(kbConfirm(app, { factId: String(cliFact), as: ' ' }, print)).rejects.toThrow('--as NAME: your name, one word');
      await expect(kbRetire(app, { factId: '99999' }, print)).rejects.toThrow('There is no fact 99999.');
      expect(await kbConfirm(app, { factId: String(cliFact), as: 'dana', text: `${GYM_ANSWER} (Updated.)`, json: true }, print)).toBe(0);
      const printed = JSON.parse(out.pop()!) as { outcome: string; replaced: number; factId: number; version: number };
      expect(printed).toMatchObject({ outcome: 'edited', replaced: cliFact, kb: 'handbook', version: 3, by: 'cli:dana' });
      confirmed = printed.factId;
      expect(await kbFacts(app, { source: 'expert', all: true }, print)).toBe(0);
      const listing = out.pop()!;
      expect(listing).toMatch(/^2 expert facts in "handbook" \(retired ones too\)$/m);
      expect(listing).toMatch(new RegExp(`^  fact ${confirmed}  active, re-confirm by \\d{4}-\\d\\d-\\d\\d; by dana \\(cli:dana\\)`, 'm'));
      expect(listing).toMatch(new RegExp(`^  fact ${cliFact}  retired in version 3;`, 'm'));
    });

    it('the console’s facts page lists expert facts, and edits, re-confirms and retires them by form posts as "console"', async () => {
      let html = await page('/facts?kb=handbook&source=expert');
      expect(html.split('data-testid="expert-fact"')).toHaveLength(2); // the retired one only with all=1
      expect(html).toContain(`data-testid="fact-id">fact ${confirmed}<`);
      expect(html).toContain('data-testid="fact-status">in use<');
      expect(html).toContain('(expert:cli:dana)');
      // Edit: a new fact replaces it, recorded as the console's.
      let res = await post('/facts', { action: 'edit', fact: String(confirmed), kb: 'handbook', text: 'Staff get 25% off at FitWell.' });
      expect(res.status).toBe(303);
      const edited = new URL(res.headers.get('location')!, server.url);
      expect(Object.fromEntries(edited.searchParams)).toMatchObject({ kb: 'handbook', done: 'edited', fact: String(confirmed) });
      const replacement = Number(edited.searchParams.get('replacement'));
      html = await page(`${edited.pathname}${edited.search}`);
      expect(html).toContain(`data-testid="facts-notice">Fact ${confirmed} is edited: it is now fact ${replacement}.<`);
      expect(html).toContain('data-testid="fact-text">Staff get 25% off at FitWell.<');
      expect(html).toContain('by console<span class="mono">(expert:console)</span>');
      // Re-confirm as it is, then retire.
      res = await post('/facts', { action: 'confirm', fact: String(replacement), kb: 'handbook' });
      expect(res.status).toBe(303);
      const reconfirmed = Number(new URL(res.headers.get('location')!, server.url).searchParams.get('replacement'));
      expect(reconfirmed).toBeGreaterThan(replacement);
      // Retire asks first: the button opens a page of its own, and a post without its confirmation retires nothing.
      html = await page(`/facts?kb=handbook&source=expert&done=confirmed&fact=${replacement}&replacement=${reconfirmed}`);
      expect(html).toContain(
        `<form method="get" action="/facts"><input type="hidden" name="kb" value="handbook" /><input type="hidden" name="retire" value="${reconfirmed}" />`,
      );
      const confirm = await page(`/facts?kb=handbook&retire=${reconfirmed}`);
      expect(confirm).toContain(`<h2>Retire fact ${reconfirmed}?</h2>`);
      expect(confirm).toContain('data-testid="retire-fact-text">Staff get 25% off at FitWell.<');
      expect(confirm).toContain('<input type="hidden" name="confirmed" value="yes" />');
      expect(confirm).toContain(`href="/facts?kb=handbook&amp;source=expert#fact-${reconfirmed}" data-testid="fact-retire-cancel"`);
      res = await post('/facts', { action: 'retire', fact: String(reconfirmed), kb: 'handbook' });
      expect(res.status).toBe(200);
      expect(squeeze(await res.text())).toContain(`<h2>Retire fact ${reconfirmed}?</h2>`);
      expect(await page('/facts?kb=handbook')).toContain('data-testid="facts-summary">1 expert fact ');
      // In a browser session the confirmation's form carries the session's CSRF token; a post without it is refused.
      const login = await fetch(`${server.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams({ token: TOKEN }).toString(),
      });
      const session = { authorization: '', cookie: login.headers.get('set-cookie')!.split(';')[0]! };
      const confirmPage = await (await fetch(`${server.url}/facts?kb=handbook&retire=${reconfirmed}`, { headers: session })).text();
      expect(confirmPage).toMatch(/<input type="hidden" name="csrf" value="[\w-]+" \/>/);
      const retireForm = { action: 'retire', fact: String(reconfirmed), kb: 'handbook', confirmed: 'yes' };
      expect((await post('/facts', retireForm, session)).status).toBe(403);
      res = await post('/facts', { action: 'retire', fact: String(reconfirmed), kb: 'handbook', confirmed: 'yes' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/facts?kb=handbook&source=expert&done=retired&fact=${reconfirmed}`);
      expect(await page('/facts?kb=handbook')).toContain('data-testid="facts-summary">0 expert facts');
      html = await page('/facts?kb=handbook&all=1');
      expect(html.split('data-testid="fact-status">retired<')).toHaveLength(5);
      // Retiring it again is refused on the page, saying why; nothing changes.
      expect((await fetch(`${server.url}/facts?kb=handbook&retire=${reconfirmed}`, { headers: bearer })).status).toBe(404);
      res = await post('/facts', { action: 'retire', fact: String(reconfirmed), kb: 'handbook', confirmed: 'yes' });
      expect(res.status).toBe(409);
      expect(squeeze(await res.text())).toContain(`data-testid="facts-error">Fact ${reconfirmed} was already retired`);
      const stored = await listFacts(app.store.db, { kb: 'handbook', sourcePrefix: 'expert:', includeRetired: true });
      expect(stored.map((f) => [f.id, f.retiredInVersion !== null])).toEqual([
        [reconfirmed, true],
        [replacement, true],
        [confirmed, true],
        [cliFact, true],
      ]);
    });

    it('counts the askers of every channel: asks over the HTTP API and the CLI name nobody, so each counts, shown as API', async () => {
      for (const channel of ['http', 'cli']) await app.ask({ question: SEED.shuttle, kb: 'handbook', channel });
      const report = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 30 });
      expect(report.groups.find((g) => g.id === ids.shuttle)).toMatchObject({ count: 12, askers: 7, apiAskers: 2 });
      expect(report.groups.find((g) => g.id === ids.pet)).toMatchObject({ askers: 5, apiAskers: 0 });
      expect(formatGaps(report)).toMatch(new RegExp(`^ +gap ${ids.shuttle} · open · 7 askers \\(2 API\\) · first asked`, 'm'));
      const html = await page('/gaps?kb=handbook');
      const shuttle = html.split('data-testid="gap-group"').find((g) => g.includes(`data-testid="gap-id">gap ${ids.shuttle}<`))!;
      expect(shuttle).toContain('data-testid="gap-askers">7</span>askers (<span data-testid="gap-api-askers">2</span>API)');
    });

    it('fact posts are refused cross-site, without credentials, and for an unknown action', async () => {
      const form = { action: 'retire', fact: String(cliFact), kb: 'handbook' };
      expect((await post('/facts', form, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await post('/facts', form, { authorization: '' })).status).toBe(401);
      expect((await post('/facts', { ...form, action: 'delete' })).status).toBe(400);
      expect((await post('/gaps', form)).status).toBe(405);
    });
  });
});
