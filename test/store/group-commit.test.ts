import { describe, expect, it } from 'vitest';

import { createGroupCommit } from '../../src/store/group-commit.js';

/** A write the test finishes by hand: each call is recorded with its batch and settled when the test says. */
function manualWrites<T, R>(result: (item: T) => R) {
  const calls: { batch: readonly T[]; finish: () => void; fail: (error: unknown) => void }[] = [];
  const write = (batch: readonly T[]) =>
    new Promise<readonly R[]>((resolve, reject) => {
      calls.push({ batch: [...batch], finish: () => resolve(batch.map(result)), fail: reject });
    });
  return { calls, write };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createGroupCommit', () => {
  it('writes a lone item at once and resolves with its own result', async () => {
    const { calls, write } = manualWrites((n: number) => n * 10);
    const writer = createGroupCommit(write);
    const one = writer.submit(1);
    await turn();
    expect(calls.map((c) => c.batch)).toEqual([[1]]);
    calls[0]?.finish();
    await expect(one).resolves.toBe(10);
  });

  it('writes what arrives during a write together in the next one, in order, each caller getting its own result', async () => {
    const { calls, write } = manualWrites((s: string) => s.toUpperCase());
    const writer = createGroupCommit(write);
    const a = writer.submit('a');
    await turn();
    const rest = ['b', 'c', 'd'].map((s) => writer.submit(s));
    await turn();
    expect(calls.map((c) => c.batch)).toEqual([['a']]); // nothing else starts while a write is in flight
    calls[0]?.finish();
    await turn();
    expect(calls.map((c) => c.batch)).toEqual([['a'], ['b', 'c', 'd']]);
    calls[1]?.finish();
    await expect(a).resolves.toBe('A');
    await expect(Promise.all(rest)).resolves.toEqual(['B', 'C', 'D']);
  });

  it('resolves a caller only once the batch holding it is stored', async () => {
    const { calls, write } = manualWrites((n: number) => n);
    const writer = createGroupCommit(write);
    let settled = false;
    void writer.submit(7).then(() => (settled = true));
    await turn();
    expect(settled).toBe(false);
    calls[0]?.finish();
    await turn();
    expect(settled).toBe(true);
  });

  it('splits what waits into batches of at most maxBatch, written one after another', async () => {
    const { calls, write } = manualWrites((n: number) => n);
    const writer = createGroupCommit(write, { maxBatch: 4 });
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => writer.submit(i)));
    for (let i = 0; i < 3; i++) {
      await turn();
      expect(calls).toHaveLength(i + 1);
      calls[i]?.finish();
    }
    await expect(all).resolves.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(calls.map((c) => c.batch)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
  });

  it('writes a failed batch again item by item: the item the database refuses fails alone, its neighbours are stored', async () => {
    const batches: number[][] = [];
    const writer = createGroupCommit(async (batch: readonly number[]) => {
      batches.push([...batch]);
      if (batch.includes(13)) throw new Error('22003: value out of range');
      return batch.map((n) => n * 10);
    });
    const outcomes = await Promise.allSettled([11, 12, 13, 14].map((n) => writer.submit(n)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      110,
      120,
      '22003: value out of range',
      140,
    ]);
    expect(batches).toEqual([[11, 12, 13, 14], [11], [12], [13], [14]]);
  });

  it('gives every caller of a failed batch the error when every write fails (database down), and goes on after', async () => {
    let down = true;
    const writer = createGroupCommit(async (batch: readonly number[]) => {
      if (down) throw new Error('connection refused');
      return batch.map((n) => n);
    });
    // Settled outcomes, so the rejections are handled as they happen.
    const failing = await Promise.allSettled([writer.submit(1), writer.submit(2), writer.submit(3)]);
    expect(failing.map((f) => f.status === 'rejected' && (f.reason as Error).message)).toEqual([
      'connection refused',
      'connection refused',
      'connection refused',
    ]);
    down = false;
    await expect(Promise.all([writer.submit(4), writer.submit(5)])).resolves.toEqual([4, 5]);
  });

  it('keeps the batches after a failed one in order, each written once', async () => {
    const { calls, write } = manualWrites((n: number) => n);
    const writer = createGroupCommit(write);
    const first = writer.submit(1);
    await turn();
    const failing = Promise.allSettled([writer.submit(2), writer.submit(3)]);
    calls[0]?.finish();
    await turn();
    const after = writer.submit(4);
    calls[1]?.fail(new Error('disk full'));
    await turn();
    // The failed batch's items are written again, one at a time, before the next batch.
    expect(calls.map((c) => c.batch)).toEqual([[1], [2, 3], [2]]);
    calls[2]?.fail(new Error('disk full'));
    await turn();
    calls[3]?.finish();
    await turn();
    calls[4]?.finish();
    await expect(first).resolves.toBe(1);
    expect((await failing).map((f) => (f.status === 'fulfilled' ? f.value : (f.reason as Error).message))).toEqual(['disk full', 3]);
    await expect(after).resolves.toBe(4);
    expect(calls.map((c) => c.batch)).toEqual([[1], [2, 3], [2], [3], [4]]);
  });

  it('rejects an item whose write returns a result count other than its size, or throws synchronously', async () => {
    const short = createGroupCommit(async (batch: readonly number[]) => batch.slice(1));
    const outcomes = await Promise.allSettled([short.submit(1), short.submit(2)]);
    for (const o of outcomes)
      expect(o).toMatchObject({ status: 'rejected', reason: { message: 'a group write returned 0 results for 1 items' } });
    const throwing = createGroupCommit((): Promise<number[]> => {
      throw new Error('no connection');
    });
    await expect(throwing.submit(1)).rejects.toThrow('no connection');
    // The writer is not stuck after a failure.
    await expect(throwing.submit(2)).rejects.toThrow('no connection');
  });

  it('refuses a maxBatch below 1', () => {
    expect(() => createGroupCommit(async (b: readonly number[]) => b, { maxBatch: 0 })).toThrow(RangeError);
  });
});
