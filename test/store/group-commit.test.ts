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

  it("rejects only the failed batch's callers, and goes on with the next batch", async () => {
    const { calls, write } = manualWrites((n: number) => n);
    const writer = createGroupCommit(write);
    const first = writer.submit(1);
    await turn();
    // Settled outcomes, so the rejections are handled as they happen.
    const failing = Promise.allSettled([writer.submit(2), writer.submit(3)]);
    calls[0]?.finish();
    await turn();
    const after = writer.submit(4);
    calls[1]?.fail(new Error('disk full'));
    await turn();
    calls[2]?.finish();
    await expect(first).resolves.toBe(1);
    expect((await failing).map((f) => f.status === 'rejected' && (f.reason as Error).message)).toEqual(['disk full', 'disk full']);
    await expect(after).resolves.toBe(4);
    expect(calls.map((c) => c.batch)).toEqual([[1], [2, 3], [4]]);
  });

  it('rejects the batch when the write returns a result count other than its size, or throws synchronously', async () => {
    const short = createGroupCommit(async (batch: readonly number[]) => batch.slice(1));
    const outcomes = await Promise.allSettled([short.submit(1), short.submit(2)]);
    for (const o of outcomes)
      expect(o).toMatchObject({ status: 'rejected', reason: { message: 'a group write returned 1 results for 2 items' } });
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
