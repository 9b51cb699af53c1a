import { describe, expect, it } from 'vitest';

import { captureConsole } from '../../src/kernel/console-capture.js';
import { foreignText, type LogLevel } from '../../src/kernel/log.js';

describe("a library's log text in one line of ours", () => {
  it("keeps 16 characters of a value an 'in' error quotes whole", () => {
    let message = '';
    try {
      // What Bolt does with an event that is a string: the error message quotes all of it.
      'channel' in (`What is our leave policy? ${'x'.repeat(4000)}` as unknown as object);
    } catch (error) {
      message = foreignText(['Bolt could not process the event:', error]);
    }
    expect(message).toBe(
      "Bolt could not process the event: TypeError: Cannot use 'in' operator to search for 'channel' in What is our leav…(4026 chars)",
    );
  });

  it('folds lines, cuts long runs (a key) to 32 characters, names objects by their kind, and caps the whole', () => {
    const pem = `-----BEGIN RSA PUBLIC KEY-----\n${'A'.repeat(64)}\n${'B'.repeat(64)}\n-----END RSA PUBLIC KEY-----\n`;
    expect(foreignText([`Available keys: ${pem}`, { secret: 'x' }, 42])).toBe(
      `Available keys: -----BEGIN RSA PUBLIC KEY----- ${'A'.repeat(32)}…(64 chars) ${'B'.repeat(32)}…(64 chars) -----END RSA PUBLIC KEY----- [Object] 42`,
    );
    const long = foreignText([Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')]);
    expect(long).toMatch(/^word0 word1 .*…\(\d+ chars\)$/);
    expect(long.length).toBeLessThan(330);
  });

  it('turns console calls into log lines while captured, and gives console back', () => {
    const lines: [LogLevel, string][] = [];
    const original = console.error;
    const release = captureConsole((level, message) => void lines.push([level, message]));
    try {
      console.error(new Error('token expired\nat a stack'));
      console.warn('BadRequest: Missing activity or activity type.');
    } finally {
      release();
    }
    expect(console.error).toBe(original);
    expect(lines).toEqual([
      ['error', 'library: Error: token expired at a stack'],
      ['warn', 'library: BadRequest: Missing activity or activity type.'],
    ]);
  });
});
