import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { diskRig, storedInteractions } from './disk-rig.js';
import { ask, cannotRun, health, startServe, stopWith, type AskResult, type ServeProcess } from './serve-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const why = cannotRun(
  ['sh', '-c', 'command -v mkfs.ext4 && command -v e2fsck && command -v chattr && losetup -f'],
  'a loop-mounted ext4 file system',
);

/** CPU seconds `pid` used over `ms` (utime + stime from /proc, 100 ticks a second). */
async function cpuSeconds(pid: number, ms: number): Promise<number> {
  const ticks = () => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const before = ticks();
  await new Promise((r) => setTimeout(r, ms));
  return (ticks() - before) / 100;
}

/**
 * The data volume fails under a serving process: its device refuses writes and
 * ext4 (errors=remount-ro) turns itself read-only, as on a dying disk. Before
 * the fix the first ask got 503, then PGlite spun at 100% CPU on the main
 * thread: no /healthz, no SIGTERM, and rows acknowledged seconds before were lost
 * (fsync was off).
 */
describe.skipIf(why)(`a data folder that turns read-only while serving${why ? ` (skipped: ${why})` : ''}`, () => {
  const rig = why ? null : diskRig();
  const servers: ServeProcess[] = [];
  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rig?.cleanup();
  });

  it('fails closed and unhealthy without spinning, stops on SIGTERM, and loses nothing it acknowledged', async () => {
    // The data volume's image sits on an ext4 of its own, so that it can be made to refuse the device's writes.
    const outer = rig!.ext4('outer', join(rig!.root, 'outer.img'), 160);
    const image = join(outer, 'disk.img');
    const mnt = rig!.ext4('mnt', image, 120);
    const dataDir = join(mnt, 'data');
    const env = { CANDOR_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' };
    const server = startServe(env);
    servers.push(server);
    const url = await server.serving(60_000);

    const acknowledged: number[] = [];
    const keep = (reply: AskResult | null) =>
      reply?.status === 200 && reply.interactionId !== null && acknowledged.push(reply.interactionId);
    for (let i = 0; i < 5; i++) keep(await ask(url, `How many days of annual leave do staff get? (${i})`));
    expect(acknowledged).toHaveLength(5);

    rig!.breakDevice(image, true);
    // Every ask is answered (a 5 s limit each): the first commit's fsync fails (a PANIC in PGlite) and every ask after is a 503.
    const replies: (AskResult | null)[] = [];
    for (let i = 0; i < 8; i++) {
      const reply = await ask(url, `How many days of annual leave do staff get? (failing ${i})`, 5_000);
      replies.push(reply);
      keep(reply);
    }
    expect(replies.map((r) => r?.status)).toEqual(Array(8).fill(503));
    // ext4 gives up at its next journal commit (every 5 s) and turns read-only; /healthz's probes give it metadata to commit.
    const readOnly = () => /^ro\b|emergency_ro/.test(rig!.mountOptions(mnt));
    for (let waited = 0; !readOnly() && waited < 20_000; waited += 250) {
      expect((await health(url))?.status).toBe(503);
      await sleep(250);
    }
    expect(rig!.mountOptions(mnt)).toMatch(/^ro\b|emergency_ro/);
    const unhealthy = await health(url);
    expect(unhealthy).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        failing: [{ name: 'database', detail: expect.stringContaining(`${dataDir} does not take writes (EROFS`) }],
        // The index was built before the disk failed: answers still have a KB to come from.
        kbs: [{ kb: 'default', version: 1, building: null, facts: expect.any(Number) }],
      },
    });
    expect(await cpuSeconds(server.pid, 1_000)).toBeLessThan(0.5);

    const stop = await stopWith(server, 'SIGTERM');
    expect(stop.code).toBe(0);
    expect(stop.ms).toBeLessThan(10_000);

    // The operator's repair: unmount, make room on the device, fsck, mount; a new server finds every acknowledged row.
    rig!.umount(mnt);
    rig!.breakDevice(image, false);
    rig!.remount(image, mnt);
    const again = startServe(env);
    servers.push(again);
    const url2 = await again.serving(60_000);
    expect((await health(url2))?.status).toBe(200);
    const after = await ask(url2, 'How many days of annual leave do staff get? (after the repair)');
    expect(after?.status).toBe(200);
    keep(after);
    expect((await stopWith(again, 'SIGTERM')).code).toBe(0);
    const stored = await storedInteractions(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    console.info(`read-only disk: SIGTERM exit ${stop.ms} ms`);
  }, 120_000);
});
