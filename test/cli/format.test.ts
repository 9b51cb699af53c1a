import { describe, expect, it } from 'vitest';

import { count, decimal, seconds } from '../../src/cli/format.js';

describe('numbers for people', () => {
  it('counts agree with their nouns and carry thousands separators', () => {
    expect(count(1, 'day')).toBe('1 day');
    expect(count(30, 'day')).toBe('30 days');
    expect(count(0, 'gap')).toBe('0 gaps');
    expect(count(1204, 'fact')).toBe('1,204 facts');
    expect(count(2, 'query', 'queries')).toBe('2 queries');
  });

  it('decimals drop binary-fraction noise and trailing zeros', () => {
    expect(decimal(0.052000000000000046)).toBe('0.052');
    expect(decimal(0.5)).toBe('0.5');
    expect(decimal(1 / 3, 2)).toBe('0.33');
    expect(seconds(2449)).toBe('2.4 s');
  });
});
