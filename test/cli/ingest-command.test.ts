import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess, type CliResult } from '../support/cli-in-process.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

/** `candor ingest` as a newcomer runs it on their own files: what it stores, and what it says it did. */
describe('candor ingest', () => {
  const files = tempFiles(
    {
      'leave.md': '# Leave\n\nFull-time staff receive 18 days of annual leave.\n\nUnused leave lapses in March.\n',
      'parking.md': '# Parking\n\nA parking permit costs $45 a month.\n',
    },
    'candor-ingest-cli-',
  );
  let env: Record<string, string>;
  const candor = (args: readonly string[], extra: Record<string, string> = {}): Promise<CliResult> =>
    candorInProcess(args, { ...env, ...extra });

  beforeAll(async () => {
    env = { CANDOR_DATA_DIR: await migratedStore(files.path('data')), LOG_LEVEL: 'warn' };
  });
  afterAll(() => files.cleanup());

  it('an ingest that stores nothing makes no knowledge base: a mistyped --kb stays unknown', async () => {
    const run = await candor(['ingest', files.path('nope.md'), '--kb', 'typo']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^nothing stored: knowledge base "typo" was not made \(1 skipped, 0 failed, \d+\.\d s\)\n$/);
    expect(run.stderr).toContain(`skipped ${files.path('nope.md')}: not found`);
    expect((await candor(['ingest', files.path('nope.md'), '--kb', 'typo', '--json'])).stdout).toContain(
      '"kb":{"name":"typo","version":0}',
    );

    // CANDOR_CHANNELS still names it as missing, and asking it says how to make it
    const channels = await candor(['channels', '--json'], { CANDOR_CHANNELS: JSON.stringify([{ slack: 'C0HR', kb: 'typo' }]) });
    expect(channels.code).toBe(1);
    expect(channels.stdout).toContain('{"name":"typo","version":null,"facts":null}');
    const ask = await candor(['ask', 'How many days of leave?', '--kb', 'typo']);
    expect(ask.code).toBe(1);
    expect(ask.stderr).toContain('There is no knowledge base named "typo"');
  });
});
