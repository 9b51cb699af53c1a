import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDurablePglite } from '../../src/store/durable-pglite.js';
import { openStore } from '../../src/store/open-store.js';
import { startPeriodicCheckpoint, type PeriodicCheckpoint } from '../../src/store/periodic-checkpoint.js';
import { migratedStore } from '../support/migrated-store.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MB = 2 ** 20;

/**
 * PGlite has no checkpointer: the store runs CHECKPOINT itself, by time when anything was written, and by WAL
 * amount, so that a killed process replays a bounded WAL. The clock is the test's; the checkpoint's own timer is
 * set far off, so each look happens when the test calls it.
 */
describe('the embedded store’s periodic checkpoint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'candor-checkpoint-'));
  let client: PGlite;
  let checkpoints: PeriodicCheckpoint;
  let now = 0;
  const redo = async () =>
    (await client.query<{ redo: string }>('select redo_lsn::text as redo from pg_control_checkpoint()')).rows[0]!.redo;
  const write = (kb: number) => client.query(`insert into written select repeat('x', 1024) from generate_series(1, ${kb})`);

  beforeAll(async () => {
    client = await openDurablePglite(join(dir, 'direct'));
    await client.exec('create table written (s text)');
    checkpoints = startPeriodicCheckpoint(client, { everyMs: 60_000, walBytes: 8 * MB, lookEveryMs: 3_600_000, now: () => now });
  });
  afterAll(async () => {
    checkpoints?.stop();
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checkpoints once the interval has passed with anything written, and leaves an idle store alone', async () => {
    await write(10);
    const before = await redo();
    now += 30_000;
    expect(await checkpoints.look()).toBe(false); // written, but the interval has not passed
    expect(await redo()).toBe(before);
    now += 30_000;
    expect(await checkpoints.look()).toBe(true);
    expect(await redo()).not.toBe(before);
    const after = await redo();
    now += 120_000;
    expect(await checkpoints.look()).toBe(false); // nothing written since
    expect(await redo()).toBe(after);
  });

  it('checkpoints as soon as the WAL since the last checkpoint reaches its amount, whatever the time', async () => {
    await write(1);
    expect(await checkpoints.look()).toBe(true); // the interval has long passed: the clock starts again here
    const before = await redo();
    await write(100);
    expect(await checkpoints.look()).toBe(false); // about 0.2 MB: under the 8 MB
    await write(10 * 1024);
    expect(await checkpoints.look()).toBe(true);
    expect(await redo()).not.toBe(before);
  });

  it('runs in a store killed with SIGKILL, and every committed row is there on the next start', async () => {
    const dataDir = await migratedStore(join(dir, 'killed'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/store/checkpoint-child.ts', dataDir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`checkpoint-child exited ${code} before writing`)));
    });
    child.kill('SIGKILL');
    await exited;
    const reported = JSON.parse(line) as { rows: number; checkpoints: number };
    expect(reported.checkpoints).toBeGreaterThanOrEqual(1);

    const store = await openStore({ dataDir });
    try {
      const { rows } = (await store.db.execute(sql`select count(*)::int as n, max(n)::int as top from kept_rows`)) as unknown as {
        rows: { n: number; top: number }[];
      };
      expect(rows).toEqual([{ n: reported.rows, top: reported.rows }]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
