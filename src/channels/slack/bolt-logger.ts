import { LogLevel, type Logger } from '@slack/bolt';

import { foreignText, type Log } from '../../kernel/log.js';

/**
 * Bolt's Logger (and the Web API client's) over Candor's JSON log: one line per call, its text made short by
 * foreignText (an error message echoing a signed payload keeps only a prefix of it). Bolt's debug output (request
 * bodies, message text) is dropped: user text stays out of logs.
 */
export function boltLogger(log: Log): Logger {
  let level = LogLevel.INFO;
  return {
    debug: () => undefined,
    info: (...parts: unknown[]) => log('info', `slack: ${foreignText(parts)}`),
    warn: (...parts: unknown[]) => log('warn', `slack: ${foreignText(parts)}`),
    error: (...parts: unknown[]) => log('error', `slack: ${foreignText(parts)}`),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
