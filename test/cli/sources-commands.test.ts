import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../support/cli-in-process.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

/** `candor sources …` on a folder: what a script relies on (the sync --json contract, exit codes, errors). */
describe('candor sources', () => {
  const files = tempFiles({ 'a-file.md': 'x\n' }, 'candor-sources-cli-');
  let env: Record<string, string>;
  beforeAll(async () => {
    mkdirSync(files.path('policies'));
    writeFileSync(files.path('policies/leave.md'), '# Leave\n\nStaff get 25 days of annual leave.\n');
    writeFileSync(files.path('policies/gym.md'), '# Gym\n\nThe gym opens at 6 am.\n');
    env = { CANDOR_DATA_DIR: await migratedStore(files.path('data')), CANDOR_KB: 'handbook', LOG_LEVEL: 'warn' };
  });
  afterAll(() => files.cleanup());

  it('add, list, sync and remove a folder source, with the sync --json contract', async () => {
    const added = await candorInProcess(['sources', 'add', files.path('policies'), '--kb', 'handbook', '--every', '6h', '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    const { source } = JSON.parse(added.stdout);
    expect(source).toMatchObject({ id: 1, kb: 'handbook', source: files.path('policies'), kind: 'folder', every: '6h', lastSync: null });

    const synced = await candorInProcess(['sources', 'sync', '--json'], env);
    expect(synced.code, synced.stderr).toBe(0);
    expect(JSON.parse(synced.stdout)).toEqual({
      sources: [
        {
          id: 1,
          kb: 'handbook',
          source: files.path('policies'),
          outcome: 'changed',
          documents: { fetched: 2, changed: 2, removed: 0, failed: 0 },
          version: 1,
          error: null,
        },
      ],
    });
    expect(synced.stderr).toContain(`candor: syncing source 1 (${files.path('policies')}) into handbook`);

    rmSync(files.path('policies/gym.md'));
    const text = await candorInProcess(['sources', 'sync', '--id', '1'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('source 1 changed: 1 fetched, 0 changed, 1 removed, 0 failed; "handbook" is now at version 2\n');

    const list = JSON.parse((await candorInProcess(['sources', 'list', '--json'], env)).stdout);
    expect(list.sources[0]).toMatchObject({
      id: 1,
      lastOutcome: 'changed',
      version: 2,
      documents: { active: 1, stale: 0, failed: 0, gone: 1 },
    });
    const listed = await candorInProcess(['sources', 'list'], env);
    expect(listed.stdout).toMatch(
      /^1 {2}handbook {2}.*policies {2}every 6h\n {3}last sync .* changed \(1 fetched, 0 changed, 1 removed, 0 failed\); next /,
    );

    const removed = await candorInProcess(['sources', 'remove', '1'], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(
      /Source 1 .* removed from "handbook": it is no longer synced\. The documents it brought stay in the KB\./,
    );
    expect((await candorInProcess(['sources', 'list'], env)).stdout).toMatch(/^No sources\./);
    const kbs = JSON.parse((await candorInProcess(['kb', 'list', '--json'], env)).stdout);
    expect(kbs.kbs).toEqual([{ name: 'handbook', version: 2, documents: 1, facts: 1 }]);
  });

  it('refuses what is not a source, with the reason and nothing stored', async () => {
    const cases: [string[], RegExp][] = [
      [['ftp://example.com/docs'], /not an http\(s\) URL: ftp:\/\/example.com\/docs: give an http\(s\) URL/],
      [[files.path('missing')], /There is no folder .*missing/],
      [[files.path('a-file.md')], /is a file: a source is a folder/],
      [[files.path('policies'), '--every', 'soon'], /"soon" is not a duration: write it as 30m, 6h, 1d or 1w/],
      [[files.path('policies'), '--every', '1m'], /synced at most every 5m/],
      [[files.path('policies'), '--include', ' '], /an empty glob matches nothing/],
      [['https://user:secret@intranet.example.com/'], /may not carry a user name or password/],
    ];
    for (const [args, message] of cases) {
      const run = await candorInProcess(['sources', 'add', ...args, '--kb', 'other'], env);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toContain('secret');
    }
    expect(JSON.parse((await candorInProcess(['sources', 'list', '--json', '--kb', 'other'], env)).stdout)).toEqual({ sources: [] });

    writeFileSync(files.path('policies/new.md'), '# New\n\nNew text.\n');
    expect((await candorInProcess(['sources', 'add', files.path('policies'), '--kb', 'other'], env)).code).toBe(0);
    const twice = await candorInProcess(['sources', 'add', files.path('policies'), '--kb', 'other'], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already has the source/);
    const unknown = await candorInProcess(['sources', 'sync', '--id', '99', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/There is no source 99/);
    expect((await candorInProcess(['sources', 'remove', '99'], env)).stderr).toMatch(/There is no source 99/);
    expect((await candorInProcess(['sources', 'sync', '--id', 'x'], env)).code).not.toBe(0);
  });
});
