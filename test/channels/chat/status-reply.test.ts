import { describe, expect, it } from 'vitest';

import type { StatusQuery, StatusReport } from '../../../src/ask/status-report.js';
import { formatStatusReport, STATUS_UNAVAILABLE, statusReply } from '../../../src/channels/chat/status-reply.js';
import { loadConfig } from '../../../src/config.js';
import type { LogLevel } from '../../../src/kernel/log.js';

// The one `status` reply of every chat channel: the configured KB, a time budget, one text when it fails.
const config = loadConfig({ CANDOR_DATA_DIR: 'memory://', CANDOR_KB: 'handbook' });
const report = (kb: string): StatusReport => ({
  kb,
  version: 3,
  facts: 120,
  documents: 4,
  today: { asked: 8, abstained: 2, since: new Date('2026-11-23T00:00:00Z') },
});

function services(status: StatusQuery) {
  const logs: { level: LogLevel; message: string }[] = [];
  return { logs, services: { config, status, log: (level: LogLevel, message: string) => void logs.push({ level, message }) } };
}

describe('statusReply', () => {
  it('reports the configured default knowledge base, not a hard-coded one', async () => {
    const asked: string[] = [];
    const { services: s } = services(async (kb) => (asked.push(kb), report(kb)));
    expect(await statusReply(s, 'teams')).toBe(
      'Knowledge base *handbook*: version 3, 120 facts from 4 documents.\nToday (since 00:00 UTC): 2 of 8 abstained (25.0%).',
    );
    expect(asked).toEqual(['handbook']);
  });

  it('gives up after the budget with the one "cannot read my status" text, and logs why', async () => {
    const { services: s, logs } = services(() => new Promise<never>(() => undefined));
    const started = performance.now();
    expect(await statusReply(s, 'teams', 50)).toBe(STATUS_UNAVAILABLE);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(logs).toEqual([{ level: 'error', message: 'teams: status failed' }]);
  });

  it('says the same when the query fails', async () => {
    const { services: s, logs } = services(async () => {
      throw new Error('connection refused');
    });
    expect(await statusReply(s, 'slack')).toBe(STATUS_UNAVAILABLE);
    expect(logs.map((l) => l.message)).toEqual(['slack: status failed']);
  });

  it('tells how to create a knowledge base that does not exist yet', () => {
    const text = formatStatusReport({
      kb: 'handbook',
      version: null,
      facts: 0,
      documents: 0,
      today: { asked: 0, abstained: 0, since: new Date() },
    });
    expect(text).toBe(
      'Knowledge base *handbook* does not exist yet: ingest documents with `candor ingest PATH --kb handbook`.\nToday (since 00:00 UTC): no questions yet.',
    );
  });
});
