import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import { metricsRoute } from '../../../src/channels/http/metrics-route.js';
import { waitFor, type RecordedCall } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { BOT_USER, sendSigned, slackEvent, startFakeSlack, startSlackRig, type SlackRig } from './slack-harness.js';

const QUESTIONS = 16;
/** chat.postMessage calls the storm lasts. */
const STORM = 30;

interface Limited {
  readonly thread: unknown;
  readonly at: number;
  readonly retryAfterS: number;
}

/**
 * Slack's Web API in a storm, call by call through chat.postMessage: 429s with Retry-After 1 or 2 s, 503s that post
 * nothing, and 500s after the message was posted (it shows in the thread); after STORM calls, all is well again.
 * conversations.replies shows what was posted, with metadata.
 */
async function stormySlack() {
  const slack = await startFakeSlack();
  const posted: RecordedCall[] = [];
  const limited: Limited[] = [];
  let n = 0;
  slack.use((call) => {
    if (call.path === '/api/conversations.replies') {
      const messages = posted
        .filter((c) => c.body.channel === call.body.channel && c.body.thread_ts === call.body.ts)
        .map((c, i) => ({ ts: `1700000500.00${i}`, thread_ts: c.body.thread_ts, text: c.body.text, metadata: c.body.metadata }));
      return { body: { ok: true, messages } };
    }
    if (call.path !== '/api/chat.postMessage') return undefined;
    const i = n++;
    const ok = { ok: true, channel: call.body.channel, ts: `1700000${String(i).padStart(3, '0')}.000100` };
    if (i >= STORM) {
      posted.push(call);
      return { body: ok };
    }
    switch (i % 5) {
      case 0:
      case 2: {
        const retryAfterS = i % 10 === 0 ? 2 : 1;
        limited.push({ thread: call.body.thread_ts, at: call.at, retryAfterS });
        return { status: 429, headers: { 'retry-after': String(retryAfterS) }, body: { ok: false, error: 'ratelimited' } };
      }
      case 1:
        return { status: 503, body: { ok: false, error: 'service_unavailable' } };
      case 3:
        posted.push(call);
        return { status: 500, body: { ok: false, error: 'internal_error' } };
      default:
        posted.push(call);
        return { body: ok };
    }
  });
  return { slack, posted, limited };
}

/** The value of `name{channel="slack"}` in a Prometheus scrape. */
function slackSeries(scraped: string, name: string): number {
  const line = scraped.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes('channel="slack"'));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('Slack replies under a storm of 429s and 5xx', () => {
  let rig: SlackRig | undefined;
  let metrics: RunningServer | undefined;
  let kb: { cleanup: () => void } | undefined;
  afterAll(async () => {
    await metrics?.stop(100);
    await rig?.close();
    kb?.cleanup();
  });

  it('waits every Retry-After, and every question gets exactly one reply', async () => {
    const storm = await stormySlack();
    rig = await startSlackRig({
      slack: storm.slack,
      env: { CANDOR_INBOX_POLL_MS: '100', CANDOR_INBOX_MAX_ATTEMPTS: '5', SLACK_SEND_SETTLE_MS: '1000' },
    });
    kb = await ingestFixture(rig.app.store.db);
    metrics = await startHttpServer([metricsRoute(rig.app.metrics!)], { host: '127.0.0.1', port: 0, log: rig.app.log });
    const events = Array.from({ length: QUESTIONS }, (_, i) =>
      slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover? (${i})`, channel: 'C0STORM' }),
    );
    const acks = await Promise.all(events.map((ev) => sendSigned(rig!.eventsUrl, ev.body)));
    expect(acks.map((r) => r.status)).toEqual(events.map(() => 200));

    const db = rig.app.store.db;
    const open = async () =>
      ((await db.execute(sql`select count(*)::int as n from inbox where status <> 'done'`)) as unknown as { rows: { n: number }[] })
        .rows[0]!.n;
    await waitFor(async () => (await open()) === 0, 120_000, 'every question done');
    const calls = storm.slack.callsTo('/api/chat.postMessage');
    expect(calls.length).toBeGreaterThan(STORM);

    // Every 429: the same reply was not sent again before its Retry-After had passed (by the fake's own clock).
    const early = storm.limited.filter((l) => {
      const next = calls.find((c) => c.body.thread_ts === l.thread && c.at > l.at);
      return next === undefined || next.at - l.at < l.retryAfterS * 1000;
    });
    expect(early).toEqual([]);
    const perThread = events.map((ev) => storm.posted.filter((c) => c.body.thread_ts === ev.ts).length);
    const lost = perThread.filter((n) => n === 0).length;
    const doubled = perThread.filter((n) => n > 1).length;
    for (const c of storm.posted) expect(String(c.body.text)).toContain('MediShield Life covers large hospital bills');

    // The inbox metrics show the wait.
    const scraped = await (await fetch(`${metrics.url}/metrics`)).text();
    const waitedS = slackSeries(scraped, 'candor_inbox_rate_limit_wait_seconds_total');
    const toldS = storm.limited.reduce((sum, l) => sum + l.retryAfterS, 0);
    expect(scraped).toMatch(/^# UNIT candor_inbox_rate_limit_wait_seconds_total s$/m);
    process.stderr.write(
      `[rate limits] ${QUESTIONS} questions, ${calls.length} chat.postMessage calls: ${storm.limited.length} answered 429 ` +
        `(Retry-After ${toldS} s in all, ${storm.limited.length - early.length} honoured), ` +
        `${calls.filter((c, i) => i < STORM && i % 5 === 1).length} answered 503, ` +
        `${calls.filter((c, i) => i < STORM && i % 5 === 3).length} posted then answered 500; ` +
        `${lost} lost, ${doubled} doubled; the inbox metrics show ${waitedS.toFixed(1)} s waited\n`,
    );
    expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
    // Each 429's reply waited its Retry-After at the gate (a few ms of it may have gone by before it got there).
    expect(waitedS).toBeGreaterThanOrEqual(toldS * 0.9);
  }, 180_000);
});
