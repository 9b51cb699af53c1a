import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import type { RunningServer } from '../../src/channels/http/http-server.js';
import { gapsAnswer } from '../../src/cli/gaps-commands.js';
import { kbConfirm, kbRetire } from '../../src/cli/kb-commands.js';
import { formatGaps, reportGaps } from '../../src/cli/report-gaps.js';
import { kbGapReport, type GapReport } from '../../src/gaps/kb-gaps.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { startConsole } from '../support/console-server.js';

const TOKEN = 'gap-reconfirmation-token-0123456789';
const DAY = 86_400_000;
const QUESTION = 'Is there a gym in the office building?';
const ANSWER = 'The staff gym is on level 2 of the office building.';
const squeeze = (html: string) => html.replace(/\s+/g, ' ').replace(/> /g, '>').replace(/ </g, '<');

/** An expert's answer falls due for re-confirmation: its gap is open again (stored, with why) until it is re-confirmed. */
describe('a re-confirmation that falls due reopens the gap', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const out: string[] = [];
  const print = (text: string) => void out.push(text);
  let app: Candor;
  let server: RunningServer;
  let gapId = 0;
  let factId = 0;

  beforeAll(async () => {
    app = await buildCandor(
      testConfig({
        CANDOR_KB: 'handbook',
        CANDOR_CONSOLE_TOKEN: TOKEN,
        CANDOR_EXPERTS: JSON.stringify([{ kb: 'handbook', people: ['cli:dana'], reconfirmDays: 30 }]),
      }),
      { telemetry: false },
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    expect((await app.ask({ question: QUESTION, kb: 'handbook', channel: 'slack', userId: 'U1' })).decision).toBe('abstain');
    gapId = (await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 90 })).groups[0]!.id;
    expect(await gapsAnswer(app, { gapId: String(gapId), text: ANSWER, as: 'dana', json: true }, print)).toBe(0);
    factId = (JSON.parse(out.pop()!) as { factId: number }).factId;
    server = await startConsole(app, { defaultKb: 'handbook', expertDays: () => 30 });
  });
  afterAll(async () => {
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  const gapOf = (report: GapReport) => report.groups.find((g) => g.id === gapId)!;

  it('stays answered while its fact is in date', async () => {
    const report = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 90, now: new Date(Date.now() + 29 * DAY) });
    expect(gapOf(report)).toMatchObject({ state: 'answered', factId, reopened: null });
  });

  it('once due, the gap is open again — stored, with the reason, in report gaps --json (its shape kept), the text report and the console', async () => {
    // The fact was given 31 days ago: the index no longer uses it, and the gap follows.
    await app.store.db.execute(sql`update facts set confirmed_at = now() - interval '31 days' where id = ${factId}`);
    expect(await reportGaps(app, { kb: 'handbook', days: 90, json: true }, print)).toBe(0);
    const printed = JSON.parse(out.pop()!) as GapReport;
    const gap = gapOf(printed);
    expect(gap).toMatchObject({ state: 'open', factId, reopened: { because: 'reconfirmation_due', at: expect.any(String) } });
    for (const key of [
      'id',
      'state',
      'factId',
      'answer',
      'question',
      'askers',
      'requests',
      'firstAsked',
      'lastAsked',
      'closedBy',
      'closedAt',
      'topic',
      'terms',
      'count',
      'questions',
      'reasons',
      'examples',
    ])
      expect(gap, key).toHaveProperty(key);
    expect(printed.states).toMatchObject({ open: 1, answered: 0 });
    const stored = await app.store.db.execute(sql`select state, reopened_because from gaps where id = ${gapId}`);
    expect((stored as unknown as { rows: unknown[] }).rows).toEqual([{ state: 'open', reopened_because: 'reconfirmation_due' }]);
    expect(formatGaps(printed)).toContain(
      `gap ${gapId} · open (again: fact ${factId} is due for re-confirmation; candor kb confirm ${factId} --as NAME)`,
    );
    const res = await fetch(`${server.url}/gaps?kb=handbook&days=90`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const html = squeeze(await res.text());
    expect(html).toContain('data-testid="gap-state">open<');
    expect(html).toMatch(
      new RegExp(
        `data-testid="gap-reopened">Open again on [^:]+:\\d\\d UTC: its answer,<a href="/facts\\?kb=handbook&amp;source=expert#fact-${factId}">fact ${factId}</a>, is due for re-confirmation`,
      ),
    );
  });

  it('re-confirming the fact answers the gap again, by the renewed fact', async () => {
    expect(await kbConfirm(app, { factId: String(factId), as: 'dana', json: true }, print)).toBe(0);
    const renewed = (JSON.parse(out.pop()!) as { factId: number }).factId;
    const report = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 90 });
    expect(gapOf(report)).toMatchObject({ state: 'answered', factId: renewed, reopened: null, answer: { text: ANSWER } });
  });

  it('retiring the fact opens the gap again, saying so', async () => {
    const answered = gapOf(await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 90 }));
    expect(await kbRetire(app, { factId: String(answered.factId), as: 'dana' }, print)).toBe(0);
    const report = await kbGapReport(app.store.db, app.indexes, { kb: 'handbook', days: 90 });
    expect(gapOf(report)).toMatchObject({ state: 'open', factId: null, reopened: { because: 'fact_retired' } });
    expect(formatGaps(report)).toContain(`gap ${gapId} · open (again: its fact was retired)`);
  });
});
