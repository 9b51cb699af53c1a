import { closeSync, openSync, statfsSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';

/** Where a socket in `dir` can be bound and reached, and what to close once it is no longer needed. */
export interface SocketAddress {
  readonly path: string;
  close(): void;
}

/** sun_path holds 108 bytes with the terminating NUL; Node cuts a longer path silently and binds elsewhere. */
const SUN_PATH_MAX = 107;

/**
 * Statfs magic numbers of file systems shared between machines (NFS, SMB, Ceph,
 * FUSE, AFS, Lustre, GFS2, OCFS2): a socket file there is not reachable from another
 * machine's kernel, so a refused connection would not mean "nobody holds it".
 */
const SHARED_FS = new Set([0x6969, 0xff534d42, 0xfe534d42, 0x517b, 0x00c36400, 0x65735546, 0x5346414f, 0x0bd00bd0, 0x01161970, 0x7461636f]);

/**
 * The socket's address in `dir`: the path itself when it fits in sun_path, else
 * (Linux) the same file reached through a short `/proc/self/fd/N/` path to an
 * open descriptor of `dir`. Null where neither works, or on a shared file system.
 */
export function socketAddress(dir: string, name: string): SocketAddress | null {
  if (process.platform === 'win32') return null;
  try {
    if (SHARED_FS.has(statfsSync(dir).type >>> 0)) return null;
  } catch {
    return null;
  }
  const full = join(resolve(dir), name);
  if (Buffer.byteLength(full) <= SUN_PATH_MAX) return { path: full, close: () => undefined };
  if (process.platform !== 'linux') return null;
  const fd = openSync(dir, 'r');
  return { path: `/proc/self/fd/${fd}/${name}`, close: () => closeSync(fd) };
}

/**
 * Listens on `path`, accepting and closing every connection (a connection is the
 * whole message: "held"). 'in-use' when the path exists (bind is exclusive);
 * other errors (a file system that refuses sockets) are thrown.
 */
export function listenOn(path: string): Promise<net.Server | 'in-use'> {
  return new Promise((done, fail) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? done('in-use') : fail(error)));
    server.listen(path, () => {
      server.removeAllListeners('error');
      server.on('error', () => undefined);
      server.unref();
      done(server);
    });
  });
}

/**
 * Whether a process listens on `path`. Refused or missing means nobody: the
 * kernel closed the holder's socket when it died, whatever its PID namespace or
 * host name. Anything else (a full backlog, a slow answer) counts as held.
 */
export function answers(path: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect(path);
    const finish = (held: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      done(held);
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.once('connect', () => finish(true));
    socket.once('error', (error: NodeJS.ErrnoException) => finish(error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT'));
  });
}
