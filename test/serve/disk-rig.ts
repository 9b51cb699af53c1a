import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';

import { openStore } from '../../src/store/open-store.js';

const run = (command: string, ...args: string[]) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Mounts made by one test file, undone (lazily, if still busy) by `cleanup`. */
export function diskRig() {
  const root = mkdtempSync(join(tmpdir(), 'candor-disk-'));
  // A shared mount of its own: a PID-namespace test starting meanwhile copies these mounts (unshare --mount-proc)
  // as slaves, so that unmounting here unmounts its copies too (a private copy would keep a broken file system alive).
  run('mount', '--bind', root, root);
  run('mount', '--make-shared', root);
  const mounts: string[] = [root];
  const at = (name: string) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  return {
    root,
    /** A tmpfs of `sizeMb` at ROOT/name. */
    tmpfs(name: string, sizeMb: number): string {
      const dir = at(name);
      run('mount', '-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir);
      mounts.push(dir);
      return dir;
    },
    /**
     * An ext4 file system (errors=remount-ro, as a server's data volume) on a
     * loop device over the sparse file `image`.
     */
    ext4(name: string, image: string, sizeMb: number): string {
      const dir = at(name);
      run('truncate', '-s', `${sizeMb}M`, image);
      run('mkfs.ext4', '-q', '-F', image);
      run('mount', '-o', 'loop,errors=remount-ro', image, dir);
      mounts.push(dir);
      return dir;
    },
    /**
     * Makes the device under `image`'s file system fail every write (EIO), as a
     * dying disk does: `image` becomes immutable, and the loop device writes into
     * it through a descriptor ext4 now refuses. `image` must live on an ext4.
     */
    breakDevice(image: string, broken: boolean): void {
      this.chattr(broken ? '+i' : '-i', [image]);
    },
    /** chattr +i / -i: an immutable file refuses writes, even through descriptors opened before. */
    chattr(flag: '+i' | '-i', paths: readonly string[]): void {
      run('chattr', flag, ...paths);
    },
    umount(dir: string): void {
      run('umount', dir);
      mounts.splice(mounts.indexOf(dir), 1);
    },
    remount(image: string, dir: string): void {
      // e2fsck exits 1 when it fixed something, 2 when it fixed something and asks for a reboot.
      const fsck = spawnSync('e2fsck', ['-fy', image], { encoding: 'utf8' });
      if ((fsck.status ?? 8) > 2) throw new Error(`e2fsck failed (${fsck.status}): ${fsck.stdout}${fsck.stderr}`);
      run('mount', '-o', 'loop', image, dir);
      mounts.push(dir);
      const options = run('findmnt', '-n', '-o', 'OPTIONS', dir).trim();
      if (!options.startsWith('rw')) throw new Error(`${image} mounted ${options}: ${run('dmesg').split('\n').slice(-8).join('\n')}`);
    },
    mountOptions(dir: string): string {
      return run('findmnt', '-n', '-o', 'OPTIONS', dir).trim();
    },
    cleanup(): void {
      for (const dir of mounts.splice(0).reverse()) {
        spawnSync('sh', ['-c', `chattr -i ${dir}/*.img 2>/dev/null`]);
        spawnSync('umount', ['-l', dir]);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Writes zeros into `dir/filler` until the file system is full; returns the filler's path. */
export function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last blocks: smaller writes until nothing fits.
  const tail = openSync(path, 'a');
  try {
    for (;;) writeSync(tail, chunk.subarray(0, 4096));
  } catch {
    // full
  } finally {
    closeSync(tail);
  }
  return path;
}

export const free = (path: string) => unlinkSync(path);

/** Interaction ids stored in an embedded data folder (its server stopped). */
export async function storedInteractions(dataDir: string): Promise<Set<number>> {
  const store = await openStore({ dataDir, purpose: 'test' });
  try {
    const { rows } = (await store.db.execute(sql`select id from interactions`)) as unknown as { rows: { id: number | string }[] };
    return new Set(rows.map((r) => Number(r.id)));
  } finally {
    await store.close();
  }
}
