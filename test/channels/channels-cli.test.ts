import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../support/cli-in-process.js';
import { migratedStore } from '../support/migrated-store.js';
import { runCli } from './run-cli.js';

// As an admin runs them, on the embedded store in a temp folder: ingest and channels through the bin's entry point
// in this process; serve as a process of its own, since refusing to start means exiting (not hanging) with the reason.
const dir = mkdtempSync(join(tmpdir(), 'candor-channels-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHANNELS = JSON.stringify([
  { slack: 'C0HR', kb: 'hr' },
  { slack: 'C0IT', kbs: ['hr', 'itpolicy'], mentionOnly: true },
]);

describe('candor channels and start-up with CANDOR_CHANNELS', () => {
  it('lists the mapping with each KB (missing ones named, exit 1); serve refuses to start naming the missing KB', async () => {
    writeFileSync(join(dir, 'hr.jsonl'), JSON.stringify({ id: 'hr-1', text: 'Staff get 18 days of annual leave.', source: 'HR' }));
    const env = { CANDOR_DATA_DIR: await migratedStore(join(dir, 'data')), CANDOR_CHANNELS: CHANNELS, CANDOR_KB: 'hr' };
    const ingest = await candorInProcess(['ingest', join(dir, 'hr.jsonl'), '--kb', 'hr'], env);
    expect(ingest.code).toBe(0);

    const list = await candorInProcess(['channels', '--json'], env);
    expect(list.code).toBe(1);
    const { channels } = JSON.parse(list.stdout) as { channels: Array<Record<string, unknown>> };
    expect(channels).toEqual([
      { platform: 'slack', where: 'C0HR', kbs: [{ name: 'hr', version: 1, facts: 1 }], mentionOnly: false, reply: 'thread', askers: null },
      {
        platform: 'slack',
        where: 'C0IT',
        kbs: [
          { name: 'hr', version: 1, facts: 1 },
          { name: 'itpolicy', version: null, facts: null },
        ],
        mentionOnly: true,
        reply: 'thread',
        askers: null,
      },
      {
        platform: 'default',
        where: 'everywhere else',
        kbs: [{ name: 'hr', version: 1, facts: 1 }],
        mentionOnly: true,
        reply: 'thread',
        askers: null,
      },
    ]);

    const serve = runCli(['serve'], { ...env, PORT: '0' });
    expect(await serve.exited).not.toBe(0);
    expect(serve.stderr()).toContain('CANDOR_CHANNELS names knowledge bases that do not exist: itpolicy');
    expect(serve.stderr()).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('serve starts with one warning line when CANDOR_CHANNELS maps Slack or Teams conversations and that channel is off', async () => {
    writeFileSync(join(dir, 'it.jsonl'), JSON.stringify({ id: 'it-1', text: 'Laptops are replaced every four years.', source: 'IT' }));
    const env = {
      CANDOR_DATA_DIR: await migratedStore(join(dir, 'data-off')),
      CANDOR_KB: 'it',
      CANDOR_CHANNELS: JSON.stringify([
        { slack: 'C0IT', kb: 'it' },
        { teams: '19:it@thread.tacv2', kb: 'it' },
      ]),
    };
    expect((await candorInProcess(['ingest', join(dir, 'it.jsonl'), '--kb', 'it'], env)).code).toBe(0);
    const serve = runCli(['serve'], { ...env, PORT: '0', LOG_FORMAT: 'json' });
    try {
      await serve.serving();
      const warnings = serve
        .stderr()
        .split('\n')
        .filter((line) => line.includes('CANDOR_CHANNELS'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({
        level: 'warn',
        message: expect.stringMatching(/^CANDOR_CHANNELS maps Slack C0IT and Teams 19:it@thread\.tacv2, but Slack and Teams are off/),
      });
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 120_000);
});
