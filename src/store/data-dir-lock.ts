import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

import { CandorError } from '../errors.js';

/** Who holds an embedded data folder: written into its lock file. */
interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly command: string;
  readonly since: string;
}

const LOCK_FILE = 'candor.lock';

/**
 * PGlite has one writer: a second process opening the same folder would work
 * on its own copy and lose what it wrote. The first opener creates
 * `candor.lock` in the folder (exclusively) and removes it on close; a lock
 * whose process is gone (killed, crashed) is taken over. Anyone else gets an
 * error naming the folder, the holder and what to do.
 */
export function lockDataDir(dataDir: string, command: string): { release(): void } {
  const path = join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), command, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            const current = readHolder(path);
            if (current?.pid === me.pid && current.host === me.host) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (holder && holder.host === me.host && !alive(holder.pid)) {
        unlinkSync(path); // its process died without closing: take the folder over
        continue;
      }
      throw new CandorError(
        'store_locked',
        `The embedded database in ${dataDir} is in use` +
          (holder ? ` by process ${holder.pid} on ${holder.host} ("candor ${holder.command}", since ${holder.since})` : '') +
          '. PGlite allows one process per data folder, so this command would not be seen by it. ' +
          'Use that server (its console at /, or POST /api/ask), or stop it and run the command again, or run both against a PostgreSQL server (set DATABASE_URL), which allows many. ' +
          `If no such process exists, delete ${path}.`,
        { status: 503 },
      );
    }
  }
  throw new CandorError('store_locked', `Could not lock the embedded database in ${dataDir}: ${path} keeps reappearing.`);
}

function readHolder(path: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? (parsed as Holder) : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
