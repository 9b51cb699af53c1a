import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who a process is, in more than a PID: a PID is reused (a restarted container's
 * node is PID 1 again) and means nothing in another PID namespace. The kernel's
 * boot id, the PID namespace and the process start time (clock ticks since boot)
 * together name one process; each is absent where /proc cannot tell it.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  readonly bootId?: string;
  readonly pidNs?: string;
  readonly startTicks?: string;
}

export function currentIdentity(): ProcessIdentity {
  const bootId = readOrUndefined(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const pidNs = readOrUndefined(() => readlinkSync('/proc/self/ns/pid'));
  const startTicks = startTicksOf('self');
  return {
    pid: process.pid,
    host: hostname(),
    ...(bootId ? { bootId } : {}),
    ...(pidNs ? { pidNs } : {}),
    ...(startTicks ? { startTicks } : {}),
  };
}

/**
 * True only when `holder` is certainly not running: its machine was rebooted,
 * or it was in our PID namespace and its PID is free or now names a process
 * started at another time. A holder in another PID namespace or on another
 * host cannot be seen from here: not provably gone.
 */
export function provablyGone(holder: ProcessIdentity, me: ProcessIdentity): boolean {
  if (holder.bootId && me.bootId && holder.bootId !== me.bootId) return holder.host === me.host;
  const sameNamespace = holder.pidNs && me.pidNs ? holder.pidNs === me.pidNs : holder.host === me.host;
  if (!sameNamespace) return false;
  if (holder.pid === me.pid) return Boolean(holder.startTicks && me.startTicks && holder.startTicks !== me.startTicks);
  if (!alive(holder.pid)) return true;
  const ticks = startTicksOf(String(holder.pid));
  return Boolean(holder.startTicks && ticks && ticks !== holder.startTicks);
}

/** Field 22 of /proc/PID/stat (after the command, which may hold spaces and parentheses). */
function startTicksOf(pid: string): string | undefined {
  return readOrUndefined(() => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOrUndefined(read: () => string | undefined): string | undefined {
  try {
    return read() || undefined;
  } catch {
    return undefined;
  }
}
