import { closeSync, existsSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite 0.5.14 starts PostgreSQL with `-F` (fsync off), and its Node file
 * system implements neither fsync nor fdatasync: a commit reaches the kernel's
 * page cache and no further. That survives the process dying (SIGKILL, OOM),
 * not the machine (power loss, kernel panic, a disk that turns read-only): up
 * to ~30 s of acknowledged commits (the kernel's writeback delay) could be lost,
 * and a checkpoint could be recorded before its pages were on disk.
 * Here fsync is on and reaches the disk: every commit fsyncs the WAL
 * (`wal_sync_method=fsync`: `fdatasync` would be a no-op in PGlite's wasm build),
 * and checkpoints fsync the files they wrote. Cost: one fsync per commit.
 */
export const DURABLE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((p) => p !== '-F'),
  '-c',
  'wal_sync_method=fsync',
];

/** NodeFS whose fsync is the host's (emscripten's NODEFS leaves it out, so PostgreSQL's fsync returned success unsynced). */
class DurableNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const result = await super.init(...args);
    result.emscriptenOpts.preRun = [
      ...(result.emscriptenOpts.preRun ?? []),
      (mod) => {
        const nodefs = (mod.FS as unknown as { filesystems: { NODEFS: NodeFsInternals } }).filesystems.NODEFS;
        // Errors become errno values PostgreSQL sees (a failed fsync is a PANIC there, as it must be).
        nodefs.stream_ops.fsync = (stream) => nodefs.tryFSOperation(() => fsyncSync(stream.nfd));
      },
    ];
    return result;
  }
}

interface NodeFsInternals {
  stream_ops: { fsync?: (stream: { nfd: number }) => void };
  tryFSOperation<T>(operation: () => T): T;
}

/** Opens (or creates) the PGlite database in `dataDir` with fsync on; a fresh one is synced to disk whole before use. */
export async function openDurablePglite(dataDir: string): Promise<PGlite> {
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  const client = new PGlite({ fs: new DurableNodeFS(dataDir), startParams: [...DURABLE_START_PARAMS] });
  try {
    await client.waitReady;
    // initdb ran in memory and was copied in without a single fsync.
    if (fresh) syncTree(dataDir);
  } catch (error) {
    abandonPglite(client);
    throw error;
  }
  return client;
}

/**
 * Lets go of an instance without running any more of PostgreSQL in it: after a
 * PANIC, PGlite's next statement spins forever in XLogFlush (seen in a CPU
 * profile: the single backend waits on a WAL write it can never finish). Closes
 * its files only; the memory goes with the last reference.
 */
export function abandonPglite(client: PGlite): void {
  try {
    client.Module.FS.quit();
  } catch {
    // not started, or already closed
  }
}

function syncTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) syncTree(join(dir, entry.name));
    else if (entry.isFile()) syncPath(join(dir, entry.name));
  }
  syncPath(dir);
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
