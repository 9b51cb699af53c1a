import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { sleep, waitFor } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { BOT_USER, sendSigned, slackEvent, slashCommand, startSlackRig, type SlackRig } from './slack-harness.js';

let rig: SlackRig;
let kb: { cleanup: () => void };

beforeAll(async () => {
  // A delay a quick reply stays under on a loaded machine too, and the slow reply (held 1.5 s) goes well past.
  rig = await startSlackRig({ channel: { reactionDelayMs: 600 } });
  kb = await ingestFixture(rig.app.store.db);
  // Chat-level behaviour of the fake, keyed by channel id.
  rig.slack.use((call) => {
    if (call.path !== '/api/chat.postMessage') return undefined;
    switch (call.body.channel) {
      case 'C0SLOW':
        return { delayMs: 1500, body: { ok: true, channel: 'C0SLOW', ts: '1700000999.000100' } };
      case 'C0BUSY':
        return rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === 'C0BUSY').length === 1
          ? { status: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } }
          : undefined;
      case 'C0NOTIN':
        return { body: { ok: false, error: 'not_in_channel' } };
      case 'C0GONE':
        return { body: { ok: false, error: 'channel_not_found' } };
      default:
        return undefined;
    }
  });
  // Warm the knowledge index so that timing-sensitive tests measure replies, not the first load.
  const warm = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel: 'C0WARM' });
  await sendSigned(rig.eventsUrl, warm.body);
  await waitFor(() => rig.slack.callsTo('/api/chat.postMessage').some((c) => c.body.channel === 'C0WARM'));
}, 30_000);

afterAll(async () => {
  await rig?.close();
  kb?.cleanup();
});

const posts = (channel: string) => rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === channel);
const reactions = (path: 'add' | 'remove', ts: string) =>
  rig.slack.callsTo(`/api/reactions.${path}`).filter((c) => c.body.timestamp === ts);

describe('Slack working reaction', () => {
  it('adds :hourglass_flowing_sand: to the question when the reply is slow, and removes it once the reply is out', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What is the speed limit on expressways?`, channel: 'C0SLOW' });
    const sent = Date.now();
    const res = await sendSigned(rig.eventsUrl, ev.body);
    // Acknowledged at once, within Slack's 3 s: the 200 comes back before the (1.5 s) reply is out.
    expect(res.status).toBe(200);
    expect(Date.now() - sent).toBeLessThan(3000);
    expect(reactions('remove', ev.ts)).toEqual([]);
    const [removed] = await waitFor(() => reactions('remove', ev.ts).length > 0 && reactions('remove', ev.ts), 15_000, 'reactions.remove');
    const [added] = reactions('add', ev.ts);
    const [post] = posts('C0SLOW');
    expect(added!.body).toMatchObject({ channel: 'C0SLOW', timestamp: ev.ts, name: 'hourglass_flowing_sand' });
    expect(removed!.body).toMatchObject({ channel: 'C0SLOW', timestamp: ev.ts, name: 'hourglass_flowing_sand' });
    // Added while the reply was pending (before the fake answered chat.postMessage, 1.5 s after it arrived; on a
    // loaded machine the answer itself can outlast the delay, so the reaction may even come first), removed after.
    expect(added!.at).toBeLessThan(post!.at + 1500);
    expect(removed!.at - post!.at).toBeGreaterThanOrEqual(1450);
  });

  it('adds no reaction when the reply is quick', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> Do learner drivers need L plates?`, channel: 'C0FAST' });
    await sendSigned(rig.eventsUrl, ev.body);
    await waitFor(() => posts('C0FAST').length === 1);
    await sleep(750); // past the 600 ms delay: a reaction wrongly left scheduled would be here by now
    expect(reactions('add', ev.ts)).toEqual([]);
    expect(reactions('remove', ev.ts)).toEqual([]);
  });
});

describe('Slack Web API errors', () => {
  it('honours Retry-After on ratelimited and posts the reply once the wait is over', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What is the speed limit on expressways?`, channel: 'C0BUSY' });
    await sendSigned(rig.eventsUrl, ev.body);
    await waitFor(() => posts('C0BUSY').length === 2, 8000, 'the retried chat.postMessage');
    const [first, second] = posts('C0BUSY');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(second!.body).toEqual(first!.body);
    expect(rig.logs).toContainEqual({
      level: 'info',
      message: 'slack: rate limited; the reply waits as Slack said',
      fields: { eventId: ev.eventId, retryAfterMs: 1000 },
    });
    await sleep(100);
    expect(posts('C0BUSY')).toHaveLength(2);
    const [row] = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
    expect(row).toMatchObject({ status: 'done', decision: 'answer' });
  });

  it.each([
    ['C0NOTIN', 'not_in_channel', 'invite the bot to the channel (/invite @Candor)'],
    ['C0GONE', 'channel_not_found', 'the channel was deleted or the bot cannot see it'],
  ])('logs %s/%s without retrying or crashing, and keeps the interaction', async (channel, code, hint) => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel });
    await sendSigned(rig.eventsUrl, ev.body);
    const line = await waitFor(() => rig.logs.find((l) => l.message === 'slack: reply not delivered' && l.fields.eventId === ev.eventId));
    expect(line).toEqual({ level: 'warn', message: 'slack: reply not delivered', fields: { code, channel, eventId: ev.eventId, hint } });
    expect(posts(channel)).toHaveLength(1);
    const [row] = await waitFor(async () => {
      const rows = await rowsFor(rig.app.store.db, 'slack', ev.eventId);
      return rows[0]?.status === 'done' && rows;
    });
    expect(row!.decision).toBe('answer');
    // Still serving.
    const next = slackEvent({ text: `<@${BOT_USER}> Do learner drivers need L plates?`, channel: `C0AFTER${code}` });
    await sendSigned(rig.eventsUrl, next.body);
    await waitFor(() => posts(`C0AFTER${code}`).length === 1);
  });
});

describe('/candor slash command', () => {
  const command = (text: string) => slashCommand({ text, responseUrl: `${rig.slack.url}/commands/T0TEAM/1/abc` });
  const send = (text: string) => sendSigned(rig.eventsUrl, command(text), { contentType: 'application/x-www-form-urlencoded' });

  it('help: answers in the ack, only to the person who asked', async () => {
    const res = await send('help');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('mention me in a channel');
    expect(body.text).toContain('`/candor status`');
    const unknown = (await (await send('frobnicate')).json()) as { text: string };
    expect(unknown.text.startsWith("I don't know the command `frobnicate`.\n*Candor* answers")).toBe(true);
  });

  it("every subcommand the Slack app manifests' usage hint offers is one the command answers to", async () => {
    for (const file of ['slack-app-manifest.yaml', 'slack-app-manifest.socket.yaml']) {
      const manifest = parse(readFileSync(new URL(`../../../deploy/${file}`, import.meta.url), 'utf8')) as {
        features: { slash_commands: Array<{ usage_hint: string }> };
      };
      const hint = manifest.features.slash_commands[0]!.usage_hint;
      const offered = hint
        .replace(/^\[|\]$/g, '')
        .split('|')
        .map((part) => part.trim().split(/\s+/)[0]!);
      expect(offered, file).toEqual(expect.arrayContaining(['ask', 'status', 'here', 'help']));
      for (const sub of offered) {
        const body = (await (await send(sub)).json()) as { text: string };
        expect(body.text, `${file}: /candor ${sub}`).not.toMatch(/^I don't know the command/);
      }
    }
  });

  it("status: KB version and fact count, and today's abstention rate from the interactions table", async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does ADR-0050 say about MediShield Life?`, channel: 'C0STATUS' });
    await sendSigned(rig.eventsUrl, ev.body);
    await waitFor(async () => (await rowsFor(rig.app.store.db, 'slack', ev.eventId))[0]?.status === 'done');
    const counted = await rig.app.store.db.execute<{ asked: number; abstained: number }>(
      sql`select count(*)::int as asked, (count(*) filter (where decision = 'abstain'))::int as abstained from interactions where decision is not null and created_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`,
    );
    const { asked, abstained } = (counted as unknown as { rows: { asked: number; abstained: number }[] }).rows[0]!;
    expect(abstained).toBeGreaterThanOrEqual(1);
    const res = await send('status');
    const body = (await res.json()) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toBe(
      'Knowledge base *default* answers here (when mentioned; the default, CANDOR_KB).\n' +
        `Knowledge base *default*: version 1, 4 facts from 1 documents.\nToday (since 00:00 UTC): ${abstained} of ${asked} abstained (${((abstained / asked) * 100).toFixed(1)}%).`,
    );
  });

  it('rejects an unsigned command with 401', async () => {
    const res = await fetch(rig.eventsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: command('status'),
    });
    expect(res.status).toBe(401);
  });
});
