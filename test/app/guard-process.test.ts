import { describe, expect, it } from 'vitest';

import { processErrorHandlers } from '../../src/app/guard-process.js';

describe('process-level errors', () => {
  it('logs an unhandled rejection and goes on serving', () => {
    const logs: string[] = [];
    const fatal: string[] = [];
    const { onRejection } = processErrorHandlers({
      log: (_l, m, f) => void logs.push(`${m}: ${f?.error instanceof Error ? f.error.message : String(f?.error)}`),
      fatal: (r) => void fatal.push(r),
    });
    for (let i = 0; i < 50; i++) onRejection(new Error('lost promise'));
    expect(logs).toHaveLength(50);
    expect(logs[0]).toBe('unhandled promise rejection: lost promise');
    expect(fatal).toEqual([]);
  });

  it('exits (once) only when uncaught exceptions come in a burst: an invariant no longer holds', () => {
    let now = 0;
    const fatal: string[] = [];
    const { onException } = processErrorHandlers({
      log: () => undefined,
      fatal: (r) => void fatal.push(r),
      burst: 3,
      windowMs: 1_000,
      now: () => now,
    });
    onException(new Error('one'));
    now += 600;
    onException(new Error('two'));
    now += 600; // the first has left the window
    onException(new Error('three'));
    expect(fatal).toEqual([]);
    now += 100;
    onException(new Error('four'));
    expect(fatal).toEqual(['3 uncaught exceptions within 1 s']);
    onException(new Error('five'));
    expect(fatal).toHaveLength(1);
  });
});
