import { chmodSync, closeSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import type net from 'node:net';
import { join } from 'node:path';

import { CandorError } from '../kernel/errors.js';
import { answers, listenOn, socketAddress, type SocketAddress } from './lock-socket.js';
import { currentIdentity, provablyGone, type ProcessIdentity } from './process-identity.js';

/** Who holds an embedded data folder: written into its lock note for the message another process shows. */
interface Holder extends ProcessIdentity {
  readonly command: string;
  readonly since: string;
  /** How the holder proves it is alive: by listening on the lock socket, or (where sockets cannot be used) by this note alone. */
  readonly mode?: 'socket' | 'note';
}

export interface DataDirLock {
  release(): void;
  /**
   * Hands every later connection to the lock socket to `handler` instead of closing it at once (a connection
   * still says "held"): how a running server takes commands from a CLI beside it. False without a socket.
   */
  accept(handler: (socket: net.Socket) => void): boolean;
}

/** The lock socket of `dataDir` as a client reaches it (close it when done), or null where there is none. */
export function lockSocketOf(dataDir: string): SocketAddress | null {
  return socketAddress(dataDir, SOCKET_FILE);
}

const LOCK_FILE = 'candor.lock';
const SOCKET_FILE = 'candor.lock.sock';
const TAKEOVER_FILE = 'candor.lock.take';
/** A takeover takes milliseconds; a takeover note older than this was left by a process that died in it. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * PGlite has one writer: a second process opening the same folder would work
 * on its own copy and lose what it wrote. The holder listens on a Unix socket
 * in the folder (`candor.lock.sock`) and writes who it is into `candor.lock`.
 * Whoever finds the socket path taken connects to it: an answer means held
 * (an error naming the holder and what to do); a refusal means the holder died
 * (SIGKILL, crash, power loss) — the kernel closed its socket, whatever its PID,
 * PID namespace or host name is now — and the folder is taken over.
 * Where sockets cannot be used (a shared or socket-less file system) the note
 * alone is the lock, and a holder counts as gone only when provably so
 * (process-identity.ts). Released on close.
 */
export async function lockDataDir(dataDir: string, command: string): Promise<DataDirLock> {
  const me: Holder = { ...currentIdentity(), command, since: new Date().toISOString() };
  const address = socketAddress(dataDir, SOCKET_FILE);
  if (!address) return lockByNote(dataDir, me);
  let keepAddress = false;
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      let bound: net.Server | 'in-use';
      try {
        bound = await listenOn(address.path);
      } catch (error) {
        if (!SOCKETLESS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        return lockByNote(dataDir, me);
      }
      if (bound === 'in-use') {
        if (await answers(address.path)) throw locked(dataDir, readHolder(join(dataDir, LOCK_FILE)), 'socket');
        await takeOver(dataDir, address);
        continue;
      }
      const server = bound;
      const previous = readHolder(join(dataDir, LOCK_FILE));
      // A holder that locks by its note alone (an older version, or a process that could not bind) is not seen by the socket.
      if (previous && previous.mode !== 'socket' && !provablyGone(previous, me)) {
        server.close();
        throw locked(dataDir, previous, 'note');
      }
      try {
        writeFileSync(join(dataDir, LOCK_FILE), `${JSON.stringify({ ...me, mode: 'socket' })}\n`);
      } catch (error) {
        server.close();
        throw error;
      }
      keepAddress = true;
      // Only the folder's owner may connect: a connection can hand the server a command (src/cli/command-handoff.ts).
      chmodSync(address.path, 0o600);
      const lock = release(dataDir, me, () => {
        server.close(); // also unlinks the socket file
        address.close();
      });
      return {
        ...lock,
        accept(handler) {
          server.removeAllListeners('connection');
          server.on('connection', handler);
          return true;
        },
      };
    }
    throw new CandorError('store_locked', `Could not lock the embedded database in ${dataDir}: ${SOCKET_FILE} keeps being taken.`);
  } finally {
    if (!keepAddress) address.close();
  }
}

/** Errors of a file system that cannot hold a Unix socket (the note alone is the lock there). */
const SOCKETLESS = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EPERM', 'EINVAL', 'ENAMETOOLONG', 'ENOSYS']);

/**
 * Removes a dead holder's socket file. Two processes finding it dead at once
 * must not both remove it (the second would remove the first's new socket):
 * the removal happens under an exclusive note, after a second look.
 */
async function takeOver(dataDir: string, address: SocketAddress): Promise<void> {
  const mutex = join(dataDir, TAKEOVER_FILE);
  for (let waited = 0; ; waited += 50) {
    try {
      closeSync(openSync(mutex, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (ageMs(mutex) > TAKEOVER_STALE_MS) unlinkQuietly(mutex);
      else if (waited > TAKEOVER_STALE_MS)
        throw new CandorError('store_locked', `Could not lock the embedded database in ${dataDir}: ${mutex} stays.`);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    if (!(await answers(address.path))) unlinkQuietly(address.path);
  } finally {
    unlinkQuietly(mutex);
  }
}

/** The lock without a socket: an exclusive note, taken over only from a holder that is provably gone. */
function lockByNote(dataDir: string, me: Holder): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${JSON.stringify({ ...me, mode: 'note' })}\n`);
      closeSync(fd);
      return { ...release(dataDir, me, () => undefined), accept: () => false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (!holder || !provablyGone(holder, me)) throw locked(dataDir, holder, 'note');
      unlinkSync(path); // its process died without closing: take the folder over
    }
  }
  throw new CandorError('store_locked', `Could not lock the embedded database in ${dataDir}: ${path} keeps reappearing.`);
}

function release(dataDir: string, me: Holder, closeSocket: () => void): Pick<DataDirLock, 'release'> {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // The note first: while the socket still answers, nobody else can have written one.
      const current = readHolder(join(dataDir, LOCK_FILE));
      if (current?.pid === me.pid && current.host === me.host && current.since === me.since) unlinkQuietly(join(dataDir, LOCK_FILE));
      closeSocket();
    },
  };
}

/** One line: who holds the folder, and what to do instead (a server can be asked over HTTP; anything can use PostgreSQL). */
function locked(dataDir: string, holder: Holder | null, mode: 'socket' | 'note'): CandorError {
  const server = holder?.command === 'serve' || holder?.command === 'start';
  const whatToDo = server
    ? 'stop that server (Ctrl-C) and run this command again, or ask it over HTTP (POST /api/ask; its console at /)'
    : holder
      ? 'wait for it to finish (or stop it) and run this command again'
      : 'stop the process that has it open and run this command again';
  return new CandorError(
    'store_locked',
    `The embedded database in ${dataDir} is in use` +
      (holder ? ` by process ${holder.pid} on ${holder.host} ("candor ${holder.command}", since ${holder.since})` : '') +
      `, and PGlite allows one process per data folder: ${whatToDo}, ` +
      'or set DATABASE_URL to a PostgreSQL server, where the CLI and the server run side by side.' +
      (mode === 'note' ? ` If no such process exists, delete ${join(dataDir, LOCK_FILE)}.` : ''),
    { status: 503 },
  );
}

function readHolder(path: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? (parsed as Holder) : null;
  } catch {
    return null;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone, or a read-only folder: the next holder takes it over
  }
}
