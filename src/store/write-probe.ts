import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { CandorError } from '../kernel/errors.js';

/** One PostgreSQL page: what the database needs to extend a table by one block. */
const PAGE = Buffer.alloc(8192);
/** Probes may overlap (health checks from several clients): each writes a file of its own. */
let probes = 0;

/**
 * Resolves when `dir` takes a new page-sized file now; throws with why not
 * (EROFS: remounted read-only, ENOSPC: full, EIO). `select 1` answers on a
 * read-only or full disk; this does not. A new file each time, so the space is
 * allocated anew (rewriting one file in place would pass on a full disk).
 * About 0.1 ms, no fsync.
 */
export async function probeWrite(dir: string): Promise<void> {
  probes = (probes + 1) % 1_000_000;
  const path = join(dir, `candor.probe.${process.pid}.${probes}`);
  try {
    await writeFile(path, PAGE);
    await unlink(path);
  } catch (cause) {
    await unlink(path).catch(() => undefined);
    // "EROFS: read-only file system, open '…'" → "EROFS: read-only file system"
    const why = (cause as Error).message.split(',')[0];
    throw new CandorError('store_unavailable', `The embedded database's folder ${dir} does not take writes (${why})`, {
      cause,
      status: 503,
      retryable: true,
    });
  }
}
