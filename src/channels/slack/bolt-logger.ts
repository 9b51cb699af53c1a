import { LogLevel, type Logger } from '@slack/bolt';

import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';

/**
 * Bolt's Logger over Candor's JSON log. Bolt's debug output (request bodies,
 * message text) is dropped: user text stays out of logs. Objects other than
 * errors are left out for the same reason.
 */
export function boltLogger(log: Log): Logger {
  let level = LogLevel.INFO;
  const line = (parts: unknown[]) =>
    parts
      .flatMap((p) => (typeof p === 'string' || typeof p === 'number' ? [String(p)] : p instanceof Error ? [describeError(p)] : []))
      .join(' ');
  return {
    debug: () => undefined,
    info: (...parts: unknown[]) => log('info', `slack: ${line(parts)}`),
    warn: (...parts: unknown[]) => log('warn', `slack: ${line(parts)}`),
    error: (...parts: unknown[]) => log('error', `slack: ${line(parts)}`),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
