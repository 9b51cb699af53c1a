import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startInboxWorker } from '../../../src/channels/chat/inbox-worker.js';
import { ReceiveActivity, signingKey, validSlackSignature } from '../../../src/channels/slack/slack-receiver.js';
import type { ClaimedEntry, Inbox } from '../../../src/inbox/inbox-store.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture, rowsFor } from '../kb-fixture.js';
import { BOT_USER, sendSigned, sign, SIGNING_SECRET, slackEvent, startSlackRig, type SlackRig } from './slack-harness.js';

const key = signingKey(SIGNING_SECRET);

describe('validSlackSignature', () => {
  const body = Buffer.from('{"type":"event_callback","event":{"text":"héllo"}}');

  it('accepts the signature Slack computes over the body as sent', () => {
    expect(validSlackSignature(key, '1700000000', body, sign(body.toString(), 1_700_000_000))).toBe(true);
    // Hex digits in upper case are the same bytes.
    const upper = `v0=${sign(body.toString(), 1_700_000_000).slice(3).toUpperCase()}`;
    expect(validSlackSignature(key, '1700000000', body, upper)).toBe(true);
  });

  it('refuses another secret, another timestamp, another body, another version, or no signature', () => {
    const good = sign(body.toString(), 1_700_000_000);
    expect(validSlackSignature(key, '1700000000', body, sign(body.toString(), 1_700_000_000, 'another-secret'))).toBe(false);
    expect(validSlackSignature(key, '1700000001', body, good)).toBe(false);
    expect(validSlackSignature(key, '1700000000', Buffer.from(`${body.toString()} `), good)).toBe(false);
    expect(validSlackSignature(key, '1700000000', body, `v1=${good.slice(3)}`)).toBe(false);
    for (const signature of [undefined, ['a', 'b'], '', 'v0=', good.slice(0, -2), `${good}00`, `${good.slice(0, -1)}x`]) {
      expect(validSlackSignature(key, '1700000000', body, signature), String(signature)).toBe(false);
    }
  });

  it('signs bytes, not decoded text: a body that is not valid UTF-8 is checked as it came', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update('v0:1700000000:').update(bytes).digest('hex')}`;
    expect(validSlackSignature(key, '1700000000', bytes, signature)).toBe(true);
    expect(validSlackSignature(key, '1700000000', Buffer.from(bytes.toString('utf8')), signature)).toBe(false);
  });

  it('refuses everything under an empty signing secret (an HMAC under an empty key is anyone’s)', () => {
    const underEmpty = `v0=${createHmac('sha256', '').update(`v0:1700000000:${body.toString()}`).digest('hex')}`;
    expect(validSlackSignature(signingKey(''), '1700000000', body, underEmpty)).toBe(false);
  });
});

describe('ReceiveActivity', () => {
  /** A request that ends when `finish` is called. */
  function open(activity: ReceiveActivity): { finish: () => void; done: Promise<void> } {
    let finish!: () => void;
    const done = activity.during(() => new Promise<void>((resolve) => (finish = resolve)));
    return { finish, done };
  }

  it('is busy while a lone request is in flight, and not after it: its answer need not wait', async () => {
    let now = 1_000;
    const activity = new ReceiveActivity(100, () => now);
    expect(activity.busy).toBe(false);
    const request = open(activity);
    now += 5_000;
    expect(activity.busy).toBe(true);
    request.finish();
    await request.done;
    expect(activity.busy).toBe(false);
  });

  it('after a burst, stays busy until quietMs have passed since its last request ended', async () => {
    let now = 1_000;
    const activity = new ReceiveActivity(100, () => now);
    const first = open(activity);
    now += 10;
    first.finish();
    await first.done;
    now += 60; // the next one comes within quietMs: a burst
    const second = open(activity);
    now += 10;
    second.finish();
    await second.done;
    expect(activity.busy).toBe(true);
    now += 99;
    expect(activity.busy).toBe(true);
    now += 1;
    expect(activity.busy).toBe(false);
    now += 500; // long after: the next one is lone again
    const third = open(activity);
    third.finish();
    await third.done;
    expect(activity.busy).toBe(false);
  });

  it('counts requests that overlap as a burst, and one that failed as received', async () => {
    let now = 0;
    const activity = new ReceiveActivity(50, () => now);
    const first = open(activity);
    now += 500; // a slow read: the second still arrives while the first is in flight
    await expect(activity.during(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    first.finish();
    await first.done;
    expect(activity.busy).toBe(true);
    now += 50;
    expect(activity.busy).toBe(false);
  });
});

/** An inbox holding `pending` rows in memory; records claims. */
function memoryInbox(pending: number): Inbox & { claims: number[] } {
  let next = 1;
  const rows: ClaimedEntry[] = Array.from({ length: pending }, () => ({
    id: next,
    channel: 'slack',
    eventId: `Ev${next++}`,
    payload: {},
    attempts: 1,
    postedRef: null,
    maybeSent: false,
  }));
  const claims: number[] = [];
  return {
    claims,
    put: async () => true,
    claim: async (_channel, _owner, limit) => {
      claims.push(performance.now());
      return rows.splice(0, limit);
    },
    extend: async () => undefined,
    sending: async () => undefined,
    posted: async () => undefined,
    done: async () => undefined,
    fail: async () => undefined,
    release: async () => undefined,
    recoverAll: async () => 0,
  };
}

const log = () => undefined;

describe('the inbox worker holding answers back for acknowledgements', () => {
  it('claims nothing while held, and claims once let go', async () => {
    const inbox = memoryInbox(3);
    let held = true;
    const processed: string[] = [];
    const worker = startInboxWorker(inbox, {
      channel: 'slack',
      holdWhile: () => held,
      pollMs: 60_000,
      log,
      process: async (entry) => {
        processed.push(entry.eventId);
        return null;
      },
    });
    try {
      worker.wake();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(inbox.claims).toEqual([]);
      held = false;
      await waitFor(() => processed.length === 3, 2_000, 'three rows answered');
    } finally {
      await worker.stop(100);
    }
  });

  it('looks again with one timer however often it is woken during a hold', async () => {
    const inbox = memoryInbox(1);
    let looks = 0;
    const worker = startInboxWorker(inbox, {
      channel: 'slack',
      holdWhile: () => {
        looks += 1;
        return true;
      },
      maxHoldMs: 60_000,
      pollMs: 60_000,
      log,
      process: async () => null,
    });
    try {
      // Each stored question of a burst wakes the worker.
      for (let i = 0; i < 200; i++) worker.wake();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const afterWakes = looks;
      await new Promise((resolve) => setTimeout(resolve, 100));
      // One look per 5 ms (timers may fire late, never early): 20 at most; a polling loop per wake would make 4,000.
      expect(looks - afterWakes).toBeLessThanOrEqual(21);
      expect(looks - afterWakes).toBeGreaterThan(0);
      expect(inbox.claims).toEqual([]);
    } finally {
      await worker.stop(100);
    }
  });

  it('holds no longer than maxHoldMs when the hold never lets go (traffic without a pause)', async () => {
    const inbox = memoryInbox(2);
    const processed: string[] = [];
    const started = performance.now();
    const worker = startInboxWorker(inbox, {
      channel: 'slack',
      holdWhile: () => true,
      maxHoldMs: 80,
      pollMs: 60_000,
      log,
      process: async (entry) => {
        processed.push(entry.eventId);
        return null;
      },
    });
    try {
      worker.wake();
      await waitFor(() => processed.length === 2, 2_000, 'rows answered after the longest hold');
      expect(inbox.claims[0]! - started).toBeGreaterThanOrEqual(75);
    } finally {
      await worker.stop(100);
    }
  });
});

describe('Slack acknowledgements before answers (HTTP)', () => {
  let rig: SlackRig;
  let kb: { cleanup: () => void };

  beforeAll(async () => {
    rig = await startSlackRig();
    kb = await ingestFixture(rig.app.store.db);
  }, 30_000);

  afterAll(async () => {
    await rig?.close();
    kb?.cleanup();
  });

  it('acknowledges a burst of questions without waiting for their answers, then answers each once', async () => {
    // Slack holds the first answer 5 s: an acknowledgement that waited for an answer would come after that.
    let held = false;
    rig.slack.use((call) => {
      if (held || call.path !== '/api/chat.postMessage' || call.body.channel !== 'CBURST') return undefined;
      held = true;
      return { delayMs: 5000, body: { ok: true, channel: 'CBURST', ts: '1700000888.000100' } };
    });
    const events = Array.from({ length: 20 }, () =>
      slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?`, channel: 'CBURST' }),
    );
    const before = rig.slack.calls.length;
    const acks = await Promise.all(
      events.map(async (ev) => ({ status: (await sendSigned(rig.eventsUrl, ev.body)).status, at: Date.now() })),
    );
    expect(acks.map((a) => a.status)).toEqual(events.map(() => 200));
    const posts = () => rig.slack.calls.slice(before).filter((c) => c.path === '/api/chat.postMessage' && c.body.channel === 'CBURST');
    await waitFor(() => posts().length === events.length, 30_000, 'every question answered');
    // Every acknowledgement came back before the first answer was through (not whether answers began before the
    // last request arrived: on a loaded machine the burst itself is spread out, and answering early is right).
    const firstPost = Math.min(...posts().map((p) => p.at));
    expect(Math.max(...acks.map((a) => a.at))).toBeLessThan(firstPost + 5000);
    expect(new Set(posts().map((p) => p.body.thread_ts))).toEqual(new Set(events.map((e) => e.ts)));
  });

  it('answers an unsigned SSL check with 200 and reads nothing else of its body', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
    const body = new URLSearchParams({ ssl_check: '1', payload: ev.body }).toString();
    const res = await fetch(rig.eventsUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-slack-signature': 'v0=unsigned',
      },
      body,
    });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rowsFor(rig.app.store.db, 'slack', ev.eventId)).toEqual([]);
  });
});
