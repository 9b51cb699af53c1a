import { basename, dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { ingestPaths, kbStatus } from '../../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../../support/compose.js';
import { useTestStore } from '../../support/stores.js';

/** Runs `fn` with the process in `dir` (the CLI is run from wherever the operator stands). */
async function inDirectory<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return await fn();
  } finally {
    process.chdir(before);
  }
}

describe('a document is the same document however its path is written', () => {
  const handle = useTestStore('pglite');
  const files = tempFiles({ 'facts.jsonl': jsonl(HANDBOOK_FACTS) });
  afterAll(() => files.cleanup());

  it('re-ingesting an unchanged file from another working directory changes nothing', async () => {
    const first = await inDirectory(files.dir, () => ingestPaths(handle.store.db, ['facts.jsonl'], { kb: 'cwd' }));
    expect(first).toMatchObject({ kb: { version: 1 }, added: 1, facts: HANDBOOK_FACTS.length });

    // Same file, same bytes, asked for from the parent directory.
    const again = await inDirectory(dirname(files.dir), () =>
      ingestPaths(handle.store.db, [`${basename(files.dir)}/facts.jsonl`], { kb: 'cwd' }),
    );
    expect(again).toMatchObject({ kb: { version: 1 }, added: 0, changed: 0, unchanged: 1, facts: 0 });
    expect(await kbStatus(handle.store.db, 'cwd')).toEqual({ version: 1, facts: HANDBOOK_FACTS.length, documents: 1 });
  });

  it('re-ingesting by absolute path what was ingested by relative path changes nothing', async () => {
    await inDirectory(files.dir, () => ingestPaths(handle.store.db, ['./facts.jsonl'], { kb: 'abs' }));
    const again = await ingestPaths(handle.store.db, [files.path('facts.jsonl')], { kb: 'abs' });
    expect(again).toMatchObject({ kb: { version: 1 }, unchanged: 1, facts: 0 });
    expect(await kbStatus(handle.store.db, 'abs')).toEqual({ version: 1, facts: HANDBOOK_FACTS.length, documents: 1 });
  });
});
