import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { httpRoutes } from '../../src/app/serve.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { importLabels } from '../../src/review/import-labels.js';
import { agreementDeps } from '../../src/review/judge/agreement-deps.js';
import { runAgreementReport } from '../../src/review/judge/agreement-job.js';
import { sampleInteractions } from '../../src/review/sample-interactions.js';
import { launchChromium } from '../support/chromium.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { syntheticReplies } from '../support/imported-replies.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const REVIEWER = { username: 'alice', password: 'alice reviews daily' };
const BENEFITS = [
  { id: 'BN-1', text: 'Dental claims are reimbursed up to $300 in each calendar year.', source: 'benefits#dental' },
  { id: 'BN-2', text: 'Staff may claim half of their gym membership fees, up to $20 per month.', source: 'benefits#gym' },
];
/** Eight live asks over two KBs, some refused; [kb, question, hours ago]. */
const LIVE: [string, string, number][] = [
  ['handbook', 'How many days of annual leave do full-time staff receive?', 0],
  ['handbook', 'Is there a shuttle bus from the train station to the office?', 1],
  ['handbook', 'How much does a staff parking permit cost?', 2],
  ['handbook', 'What does ADR-0050 say about parking?', 5],
  ['handbook', 'Can staff bring pets to the office on Fridays?', 9],
  ['benefits', 'How much are dental claims reimbursed each year?', 3],
  ['benefits', 'Are taxi fares to client meetings covered?', 6],
  ['benefits', 'Does the scheme pay for spectacles?', 12],
];
const IMPORTED = 1_729;

/**
 * The KB owner's and reviewer's desk in a real browser: hourly charts, the KB selector, a refusal's near
 * misses, the review queue (1,729 imported and 8 live samples), labelling, the agreement report and its
 * disagreements. One store, seeded once; one browser.
 */
describe('the console desk in a browser', () => {
  const files = tempFiles({
    'handbook.jsonl': jsonl(HANDBOOK_FACTS),
    'benefits.jsonl': jsonl(BENEFITS),
    'policybench.jsonl': jsonl(syntheticReplies(IMPORTED)),
  });
  let app: Candor;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let url = '';
  const shuttle = { id: 0 };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    app = await buildCandor(
      testConfig({
        CANDOR_KB: 'handbook',
        CANDOR_CONSOLE_BASIC_AUTH: `${REVIEWER.username}:${REVIEWER.password}`,
        CANDOR_REVIEWERS: `console:${REVIEWER.username}`,
      }),
      { telemetry: false },
    );
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    await ingestPaths(app.store.db, [files.path('benefits.jsonl')], { kb: 'benefits' });
    for (const [kb, question, hoursAgo] of LIVE) {
      const { interactionId } = await app.ask({ question, kb, channel: 'slack' });
      if (question.includes('shuttle')) shuttle.id = interactionId!;
      await app.store.db.execute(
        sql`update interactions set created_at = now() - make_interval(hours => ${hoursAgo}) where id = ${interactionId}`,
      );
    }
    // As `candor review import` does it: PolicyBench's published labels stand-in.
    const imported = await importLabels(app.store.db, {
      annotator: 'policybench',
      task: 'abstention',
      file: files.path('policybench.jsonl'),
    });
    expect(imported.labels.recorded).toBe(IMPORTED);
    expect(await sampleInteractions(app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 100, seed: 7 })).toHaveLength(
      LIVE.length,
    );
    server = await startHttpServer(httpRoutes(app, []), { host: '127.0.0.1', port: 0, log: app.log });
    url = server.url;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, httpCredentials: { ...REVIEWER, send: 'always' } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop(500);
    await app?.close();
    files.cleanup();
  });

  // The viewport only: full-page captures of long tables cost seconds on a loaded CI machine.
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}console-desk-${name}.png` });

  it('charts the last 24 hours by the hour', async () => {
    await page.goto(`${url}/?days=1`);
    const chart = page.locator('svg[aria-label="Asks per hour, answered and refused"]');
    await expect(chart.count()).resolves.toBe(1);
    expect(await page.getByTestId('bucket').textContent()).toContain('per hour');
    expect(await page.getByTestId('asks-total').textContent()).toBe(String(LIVE.length));
    // One stack of bars per hour that had asks.
    const titles = await chart.locator('rect title').allTextContents();
    expect(new Set(titles.map((t) => t.slice(0, 11))).size).toBe(new Set(LIVE.map(([, , h]) => h)).size);
    expect(titles.every((t) => /^\d\d-\d\d \d\d:00 (answered|refused): \d+$/.test(t))).toBe(true);
    await shot('overview-hourly');
  });

  it('switches the knowledge base in the header, and keeps it while navigating', async () => {
    await page.getByTestId('kb-selector').getByRole('combobox', { name: 'Knowledge base' }).selectOption('benefits');
    await page.getByTestId('kb-selector').getByRole('button', { name: 'Switch' }).click();
    await page.waitForURL(/\/\?kb=benefits$/);
    expect(await page.getByTestId('asks-total').textContent()).toBe('3');
    await page.getByRole('link', { name: 'Interactions', exact: true }).click();
    await page.waitForURL(/\/interactions\?kb=benefits$/);
    const kbs = await page.getByTestId('interactions').locator('tbody tr td:nth-child(4)').allTextContents();
    expect(kbs.map((k) => k.replace(/\s*v\d+$/, ''))).toEqual(['benefits', 'benefits', 'benefits']);
    await shot('kb-selector');
  });

  it('opens a refusal and reads the retrieved facts that nearly answered, with their scores and why each fell short', async () => {
    await page.goto(`${url}/interactions?kb=handbook&decision=abstain`);
    await page.getByRole('link', { name: 'Is there a shuttle bus from the train station to the office?' }).click();
    await page.waitForURL(`${url}/interactions/${shuttle.id}`);
    const misses = page.getByTestId('near-miss');
    expect(await misses.count()).toBeGreaterThan(0);
    expect(await misses.count()).toBeLessThanOrEqual(5);
    const scores = (await page.getByTestId('near-miss-score').allTextContents()).map(Number);
    expect(scores.every((s) => s > 0 && s <= 1)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(await page.getByTestId('near-miss-why').first().textContent()).toContain('does not mention');
    await shot('refusal-near-misses');
  });

  it('opens the review queue in one click: the 8 live samples, not the 1,729 imported ones', async () => {
    await page.goto(`${url}/`);
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.waitForURL(`${url}/review`);
    expect(await page.getByTestId('sample').count()).toBe(LIVE.length);
    expect(await page.getByTestId('backlog-count').textContent()).toBe(String(LIVE.length));
    expect(await page.getByTestId('source-live').textContent()).toMatch(/live\s+8/);
    expect(await page.getByTestId('source-imported').textContent()).toMatch(/imported\s+1,729/);
    await shot('review-queue');
    await page.getByTestId('source-imported').click();
    expect(await page.getByTestId('sample').count()).toBe(50);
    expect(await page.locator('[data-testid="sample"][data-labelled="yes"]').count()).toBe(50);
  });

  it('labels a live sample in the console, and the label counts in the next agreement report', async () => {
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.getByTestId('sample-link').first().click();
    const question = await page.getByTestId('sample-question').textContent();
    expect(LIVE.map(([, q]) => q)).toContain(question);
    await page.getByTestId('label-abstention-incorrect').click();
    expect(await page.getByTestId('label-notice').textContent()).toMatch(/Label recorded:\s+abstention\s+=\s+incorrect/);
    expect(await page.getByTestId('label').allTextContents()).toEqual(['console:alice: ❌ Incorrect']);
    await shot('review-labelled');
    const run = await runAgreementReport(agreementDeps(app), 'manual:browser');
    expect(run.status).toBe('created');
    await page.getByRole('link', { name: 'Agreement', exact: true }).click();
    const body = (await page.locator('main').textContent())!.replace(/\s+/g, ' ');
    expect(body).toContain(`${IMPORTED + 1} items labelled by people (console:alice, import:policybench)`);
    expect(await page.getByTestId('confusion').count()).toBe(1);
    expect(await page.getByTestId('per-class').locator('tbody tr').count()).toBe(2);
    await shot('agreement');
  });

  it('lists the disagreements: question, reply, each rater’s label and the judge’s reason', async () => {
    const rows = page.getByTestId('disagreement');
    expect(await rows.count()).toBeGreaterThan(0);
    const first = rows.first();
    expect(await first.getByTestId('disagreement-question').textContent()).toMatch(/^What does clause \d+ of the synthetic scheme provide/);
    expect(await first.getByTestId('disagreement-reply').textContent()).toMatch(/clause \d+/);
    expect(await first.getByTestId('disagreement-people').textContent()).toMatch(/import:policybench: (correct|incorrect)/);
    expect(await first.getByTestId('disagreement-judge').textContent()).toMatch(/rule:abstention@1: (correct|incorrect)/);
    expect(await first.getByTestId('disagreement-reason').textContent()).toMatch(
      /^The reply (abstains|answers) \(.+\); the right decision was to/,
    );
    await page.goto(`${url}/agreement#disagreements`); // the list's heading at the top of the screenshot
    await shot('disagreements');
  });
});
