/**
 * The screenshots in the docs, made from the real code against a seeded store: `npm run docs:screenshots`.
 *
 * It builds Candor on a throw-away in-memory store (default settings, extractive mode), ingests the example
 * KB, asks it the 80 questions of examples/questions/example-kb.jsonl over the last day from three channels
 * (so the overview, the interactions, the gaps and the review queue hold real decisions), samples them for
 * review, serves the console and photographs its pages in Chromium. The Slack reply is the Block Kit that
 * renderSlackReply makes of a real answer, drawn as Slack lays a thread out (scripts/slack-message-html.ts).
 * Everything is written to docs/images/; progress goes to stderr.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';

import { buildCandor } from '../src/app/main.js';
import { httpRoutes } from '../src/app/serve.js';
import { startHttpServer } from '../src/channels/http/http-server.js';
import { renderSlackReply } from '../src/channels/slack/render-slack-reply.js';
import { loadConfig } from '../src/config.js';
import { readExampleQuestions } from '../src/eval/example-questions/example-questions.js';
import { recordFeedback } from '../src/feedback/asker-feedback.js';
import { ingestPaths } from '../src/kb/ingest/ingest.js';
import { sampleInteractions } from '../src/review/sample-interactions.js';
import { launchChromium } from '../test/support/chromium.js';
import { slackThreadHtml } from './slack-message-html.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = join(ROOT, 'docs', 'images');
const KB = 'default';
const REVIEWER = { username: 'dana', password: 'dana reviews daily' };
const CHANNELS = ['slack', 'teams', 'http'] as const;
/** The answer the Slack picture shows, and a refusal the interaction picture opens. */
const SLACK_QUESTION = 'How much extra do people with serious pre-existing conditions pay on their premiums, and for how long?';
const REFUSED_QUESTION = "Does MediShield Life pay for physiotherapy after I'm discharged?";
const ASK_BOX_QUESTION = 'How much will MediShield Life pay per day if I am in a normal ward?';

const say = (message: string) => process.stderr.write(`docs:screenshots: ${message}\n`);

async function main(): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const config = loadConfig({
    CANDOR_DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    CANDOR_CONSOLE_BASIC_AUTH: `${REVIEWER.username}:${REVIEWER.password}`,
    CANDOR_REVIEWERS: `console:${REVIEWER.username}`,
    CANDOR_EXPERTS: JSON.stringify([{ kb: KB, people: [`console:${REVIEWER.username}`] }]),
  });
  // Telemetry on (no exporter is configured): interactions get real trace ids, as in production.
  const app = await buildCandor(config, { purpose: 'docs screenshots' });
  try {
    const ingested = await ingestPaths(app.store.db, [join(ROOT, 'examples', 'kb')], { kb: KB });
    say(`ingested the example KB: ${ingested.documents} documents, ${ingested.facts} facts`);
    const refusedId = await askTheExampleQuestions(app);
    await sampleInteractions(app.store.db, { answeredRate: 0.3, abstainedRate: 1, maxPerRun: 20, seed: 7 });

    const slack = await app.ask({ question: SLACK_QUESTION, kb: KB, channel: 'slack' }, { record: false });
    const replies = renderSlackReply({ kind: 'decision', decision: slack }, { action: 'docs', askExpert: false });

    const server = await startHttpServer(httpRoutes(app, [KB]), { host: '127.0.0.1', port: 0, log: app.log });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        httpCredentials: { ...REVIEWER, send: 'always' },
      });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      const shot = async (name: string, path: string, fullPage = false) => {
        await page.goto(`${server.url}${path}`);
        await page.screenshot({ path: join(IMAGES, `${name}.png`), fullPage });
        say(`docs/images/${name}.png (${path})`);
      };
      await page.setViewportSize({ width: 1280, height: 1000 });
      await shot('console-overview', '/?days=1');
      await page.setViewportSize({ width: 1280, height: 800 });
      await shot('console-refusal', `/interactions/${refusedId}`, true); // the near misses are at the foot
      await shot('console-gaps', '/gaps');
      await shot('console-review', '/review');
      await askInTheConsole(page, server.url);

      // A page of its own: the console's Content-Security-Policy would refuse the thread's styles.
      const slackPage = await browser.newPage({ viewport: { width: 700, height: 600 }, deviceScaleFactor: 2 });
      await slackPage.setContent(slackThreadHtml({ channel: 'benefits', asker: 'Dana Lee', question: SLACK_QUESTION, replies }));
      await slackPage.getByTestId('thread').screenshot({ path: join(IMAGES, 'slack-reply.png') });
      say('docs/images/slack-reply.png (renderSlackReply of a real answer)');
    } finally {
      await browser.close();
      await server.stop(500);
    }
  } finally {
    await app.close();
  }
}

/** Asks every example question once, spread over the last 23 hours and three channels; returns the refusal to open. */
async function askTheExampleQuestions(app: Awaited<ReturnType<typeof buildCandor>>): Promise<number> {
  const questions = readExampleQuestions(join(ROOT, 'examples', 'questions', 'example-kb.jsonl'));
  let refusedId = 0;
  for (const [i, q] of questions.entries()) {
    const channel = CHANNELS[i % CHANNELS.length] ?? 'http';
    const decision = await app.ask({ question: q.question, kb: KB, channel, userId: `U0ASKER${i % 9}`, eventId: `docs-${i}` });
    const id = decision.interactionId;
    if (id === null) continue;
    // Some askers press 👍 or 👎 under chat answers, as the overview's feedback rate counts them.
    if (decision.decision === 'answer' && channel !== 'http' && i % 3 !== 2)
      await recordFeedback(app.store.db, {
        interactionId: id,
        asker: `${channel}:docs-asker-${i}`,
        kind: i % 5 === 0 ? 'not_helpful' : 'helpful',
        ...(i % 5 === 0 ? { reason: 'incomplete' as const } : {}),
      });
    if (q.question === REFUSED_QUESTION) refusedId = id;
    const minutesAgo = Math.round(((questions.length - i) * 23 * 60) / questions.length);
    await app.store.db.execute(sql`update interactions set created_at = now() - make_interval(mins => ${minutesAgo}) where id = ${id}`);
  }
  say(`asked ${questions.length} questions`);
  if (refusedId === 0) throw new Error(`"${REFUSED_QUESTION}" is no longer in the example questions: pick another refusal`);
  return refusedId;
}

async function askInTheConsole(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/ask`);
  await page.getByTestId('ask-question').fill(ASK_BOX_QUESTION);
  await page.getByTestId('ask-submit').click();
  await page.getByTestId('ask-result').waitFor();
  await page.screenshot({ path: join(IMAGES, 'console-ask.png') });
  say('docs/images/console-ask.png (/ask)');
}

main().catch((error: unknown) => {
  process.stderr.write(`docs:screenshots: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
