import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess, type CliResult } from '../support/cli-in-process.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

/** `candor ingest` as a newcomer runs it on their own files: what it stores, and what it says it did. */
describe('candor ingest', () => {
  const files = tempFiles({}, 'candor-ingest-cli-');
  const handbook = files.path('handbook');
  let env: Record<string, string>;
  const candor = (args: readonly string[], extra: Record<string, string> = {}): Promise<CliResult> =>
    candorInProcess(args, { ...env, ...extra });

  beforeAll(async () => {
    mkdirSync(handbook);
    writeFileSync(`${handbook}/leave.md`, '# Leave\n\nFull-time staff receive 18 days of annual leave.\n\nUnused leave lapses in March.\n');
    writeFileSync(`${handbook}/parking.md`, '# Parking\n\nA parking permit costs $45 a month.\n');
    env = { CANDOR_DATA_DIR: await migratedStore(files.path('data')), LOG_LEVEL: 'warn' };
  });
  /** The summary line, without the time it took. */
  const summary = (run: CliResult) => run.stdout.split('\n')[0]!.replace(/, \d+\.\d s\)?$/, '');
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

  it('the summary says what changed: documents added or changed, facts stored and retired, links given, and the new version', async () => {
    const links = (base: string) => ({ CANDOR_SOURCE_URLS: JSON.stringify({ handbook: base }) });
    const first = await candor(['ingest', handbook, '--kb', 'hb'], links('https://intranet.example.com/v1/'));
    expect(first.code, first.stderr).toBe(0);
    expect(summary(first)).toBe(
      'knowledge base "hb" is now at version 1: 2 documents (2 added, 0 changed, 0 unchanged); 3 facts stored, 0 retired; 0 skipped, 0 failed',
    );

    const same = await candor(['ingest', handbook, '--kb', 'hb'], links('https://intranet.example.com/v1/'));
    expect(summary(same)).toBe('knowledge base "hb" is unchanged at version 1: 2 documents unchanged; 0 skipped, 0 failed');

    // only the links changed: a new version, and the summary says so (it used to say "2 unchanged")
    const moved = await candor(['ingest', handbook, '--kb', 'hb'], links('https://intranet.example.com/v2/'));
    expect(summary(moved)).toBe(
      'knowledge base "hb" is now at version 2: 2 documents (0 added, 0 changed, 2 with a new link, 0 unchanged); ' +
        '0 facts stored, 0 retired, 3 with a new link; 0 skipped, 0 failed',
    );

    writeFileSync(`${handbook}/parking.md`, '# Parking\n\nA parking permit costs $50 a month.\n\nPermits renew in January.\n');
    const edited = await candor(['ingest', handbook, '--kb', 'hb'], links('https://intranet.example.com/v2/'));
    expect(summary(edited)).toBe(
      'knowledge base "hb" is now at version 3: 2 documents (0 added, 1 changed, 1 unchanged); 2 facts stored, 1 retired; 0 skipped, 0 failed',
    );
    const json = await candor(['ingest', handbook, '--kb', 'hb', '--json'], links('https://intranet.example.com/v3/'));
    expect(JSON.parse(json.stdout)).toMatchObject({ kb: { version: 4 }, unchanged: 2, relinked: 2, relinkedFacts: 4 });
  });
});
