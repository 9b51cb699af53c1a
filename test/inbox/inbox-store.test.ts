import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { createInbox } from '../../src/inbox/inbox-store.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const driver of DRIVERS) {
  describe(`inbox store (${driver})`, () => {
    const handle = useTestStore(driver);
    const inbox = () => createInbox(handle.store);
    const put = (eventId: string, channel = 'slack') => inbox().put({ channel, eventId, payload: { text: eventId } });

    it('stores a payload holding a NUL or a lone surrogate (PostgreSQL refuses both), as U+FFFD', async () => {
      const eventId = `${driver}-odd\u0000id`;
      expect(await inbox().put({ channel: 'slack', eventId, payload: { text: 'a\u0000b \ud800', ['k\u0000']: ['\udc00'] } })).toBe(true);
      const [claimed] = await inbox()
        .claim('slack', 'w-odd', 10, 60_000)
        .then((rows) => rows.filter((r) => r.eventId.startsWith(`${driver}-odd`)));
      expect(claimed?.eventId).toBe(`${driver}-odd\uFFFDid`);
      expect(claimed?.payload).toEqual({ text: 'a\uFFFDb \uFFFD', ['k\uFFFD']: ['\uFFFD'] });
    });

    it('stores what arrives together in one batch, and a put that cannot be stored fails alone, not its neighbours', async () => {
      const ch = `${driver}-batch`;
      const box = inbox();
      // A payload that cannot be written (a bigint has no JSON form) shares one turn, so one batch, with two others.
      const outcomes = await Promise.allSettled([
        box.put({ channel: ch, eventId: 'a', payload: { text: 'a' } }),
        box.put({ channel: ch, eventId: 'bad', payload: { text: 'bad', n: 1n } }),
        box.put({ channel: ch, eventId: 'c', payload: { text: 'c' } }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(outcomes.map((o) => o.status === 'fulfilled' && o.value)).toEqual([true, false, true]);
      expect((await box.claim(ch, 'w', 10, 60_000)).map((e) => e.eventId).sort()).toEqual(['a', 'c']);
    });

    it('stores an event once: a redelivery is not new', async () => {
      // Two deliveries of one event at once (on separate writers, as two replicas would): exactly one is new.
      const [a, b, other] = await Promise.all([put(`${driver}-e1`), put(`${driver}-e1`), put(`${driver}-e2`)]);
      expect([a, b].sort()).toEqual([false, true]);
      expect(other).toBe(true);
      expect(await put(`${driver}-e1`)).toBe(false);
    });

    it('hands each open row to one worker at a time, oldest first, per channel', async () => {
      const ch = `${driver}-claims`;
      for (const id of ['q1', 'q2', 'q3']) await put(id, ch);
      await put('other', `${ch}-x`);
      const [a, b] = await Promise.all([inbox().claim(ch, 'w1', 2, 60_000), inbox().claim(ch, 'w2', 2, 60_000)]);
      const all = [...a, ...b];
      expect(all.map((e) => e.eventId).sort()).toEqual(['q1', 'q2', 'q3']);
      expect(new Set(all.map((e) => e.id)).size).toBe(3);
      expect(all.every((e) => e.attempts === 1 && e.payload.text === e.eventId && e.postedRef === null)).toBe(true);
      expect(await inbox().claim(ch, 'w3', 5, 60_000)).toEqual([]);
    });

    it('takes a row again once its lease runs out (its worker died), counting the attempt', async () => {
      const ch = `${driver}-lease`;
      await put('slow', ch);
      const [first] = await inbox().claim(ch, 'dead-worker', 1, 200);
      await inbox().posted(first!.id, 'ts-1');
      expect(await inbox().claim(ch, 'live', 1, 60_000)).toEqual([]);
      await sleep(300);
      const [again] = await inbox().claim(ch, 'live', 1, 60_000);
      expect(again).toMatchObject({ id: first!.id, attempts: 2, postedRef: 'ts-1' });
      // The dead worker can no longer finish it: only the holder of the lease can.
      await inbox().done(first!.id, 'dead-worker', null);
      expect((await rows(ch))[0]).toMatchObject({ status: 'claimed', lease_owner: 'live' });
      await inbox().done(first!.id, 'live', 'ts-1');
      expect((await rows(ch))[0]).toMatchObject({ status: 'done', lease_owner: null, posted_ref: 'ts-1' });
    });

    it('leaves a row whose reply may still be landing until it would have, then hands it over as maybe sent', async () => {
      const ch = `${driver}-sending`;
      await put('sent', ch);
      const [first] = await inbox().claim(ch, 'dead-worker', 1, 200);
      expect(first!.maybeSent).toBe(false);
      await inbox().sending(first!.id, 60_000);
      await sleep(300);
      // The lease ran out, but the reply may still be landing: not yet.
      expect(await inbox().claim(ch, 'live', 1, 60_000)).toEqual([]);
      await inbox().sending(first!.id, 0);
      const [again] = await inbox().claim(ch, 'live', 1, 60_000);
      expect(again).toMatchObject({ id: first!.id, attempts: 2, maybeSent: true });
    });

    it('extends a held lease, retries a failed try after its backoff, gives up on the last', async () => {
      const ch = `${driver}-fail`;
      await put('flaky', ch);
      const [row] = await inbox().claim(ch, 'w', 1, 150);
      await inbox().extend([row!.id], 'w', 60_000);
      await sleep(250);
      expect(await inbox().claim(ch, 'other', 1, 60_000)).toEqual([]);
      await inbox().fail(row!.id, 'w', 'slack 503', { final: false, retryInMs: 150 });
      expect(await inbox().claim(ch, 'other', 1, 60_000)).toEqual([]);
      await sleep(250);
      const [retry] = await inbox().claim(ch, 'other', 1, 60_000);
      expect(retry).toMatchObject({ attempts: 2 });
      await inbox().fail(retry!.id, 'other', 'slack 503 again', { final: true, retryInMs: 0 });
      expect((await rows(ch))[0]).toMatchObject({ status: 'failed', last_error: 'slack 503 again' });
      expect(await inbox().claim(ch, 'other', 1, 60_000)).toEqual([]);
    });

    it('gives a stopping worker’s rows back, and recovers every claim at once for a sole writer', async () => {
      const ch = `${driver}-release`;
      await put('a', ch);
      await put('b', ch);
      await inbox().claim(ch, 'stopping', 1, 60_000);
      await inbox().claim(ch, 'killed', 1, 60_000);
      await inbox().release('stopping');
      expect((await inbox().claim(ch, 'next', 5, 60_000)).map((e) => e.eventId)).toEqual(['a']);
      expect(await inbox().recoverAll()).toBeGreaterThanOrEqual(2);
      expect((await inbox().claim(ch, 'next', 5, 60_000)).map((e) => e.eventId).sort()).toEqual(['a', 'b']);
    });

    async function rows(channel: string) {
      const result = (await handle.store.db.execute(
        sql`select status, lease_owner, posted_ref, last_error from inbox where channel = ${channel} order by id`,
      )) as unknown as {
        rows: Record<string, unknown>[];
      };
      return result.rows;
    }
  });
}
