import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { diskRig, fill, free, storedInteractions } from './disk-rig.js';
import { ask, cannotRun, health, startServe, stopWith, type AskResult, type ServeProcess } from './serve-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const why = cannotRun(['sh', '-c', 'command -v mkfs.ext4 && command -v chattr && losetup -f'], 'mounting file systems');

async function healthyWithin(url: string, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 200) {
    if ((await health(url))?.status === 200) return true;
    await sleep(200);
  }
  return false;
}

/**
 * Disk trouble the same server gets over once it is gone (as it would on
 * PostgreSQL): a full disk, and writes the disk refuses for a while. /healthz
 * must say so (`select 1` answers on a full disk), asks fail closed with 503,
 * and nothing acknowledged is lost.
 */
describe.skipIf(why)(`disk trouble the server recovers from${why ? ` (skipped: ${why})` : ''}`, () => {
  const rig = why ? null : diskRig();
  const servers: ServeProcess[] = [];
  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rig?.cleanup();
  });

  const serve = async (dataDir: string) => {
    const server = startServe({ CANDOR_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' });
    servers.push(server);
    return { server, url: await server.serving(60_000) };
  };
  const acknowledged: number[] = [];
  const keep = (reply: AskResult | null) => {
    if (reply?.status === 200 && reply.interactionId !== null) acknowledged.push(reply.interactionId);
    return reply;
  };

  it('a full disk: /healthz 503 naming the store, asks 503, and both back once space is freed', async () => {
    acknowledged.length = 0;
    const dataDir = join(rig!.tmpfs('full', 96), 'data');
    const { server, url } = await serve(dataDir);
    for (let i = 0; i < 5; i++) expect(keep(await ask(url, `How many days of annual leave do staff get? (${i})`))?.status).toBe(200);

    const filler = fill(join(dataDir, '..'));
    expect(await health(url)).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        failing: [{ name: 'database', detail: expect.stringContaining(`${dataDir} does not take writes (ENOSPC`) }],
        // The index was built before the disk failed: answers still have a KB to come from.
        kbs: [{ kb: 'default', version: 1, building: null, facts: expect.any(Number) }],
      },
    });
    // Rows go into pages that have room until one needs a new page: that ask, and every one after, is a 503.
    const replies: (AskResult | null)[] = [];
    for (let i = 0; i < 40 && replies.at(-1)?.status !== 503; i++) replies.push(keep(await ask(url, `Full disk? (${i})`, 5_000)));
    expect(replies.every((r) => r !== null)).toBe(true);
    expect(replies.at(-1)?.status).toBe(503);

    free(filler);
    expect(await healthyWithin(url, 15_000)).toBe(true);
    expect(keep(await ask(url, 'How many days of annual leave do staff get? (space freed)'))?.status).toBe(200);
    const stop = await stopWith(server, 'SIGTERM');
    expect(stop.code).toBe(0);
    const stored = await storedInteractions(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 90_000);

  it('writes refused for a while (a PANIC in PGlite): fails fast without spinning, then reopens the database in the same process', async () => {
    acknowledged.length = 0;
    const dataDir = join(rig!.ext4('refusing', join(rig!.root, 'refusing.img'), 120), 'data');
    const { server, url } = await serve(dataDir);
    for (let i = 0; i < 3; i++) expect(keep(await ask(url, `How many days of annual leave do staff get? (${i})`))?.status).toBe(200);

    const segments = readdirSync(join(dataDir, 'pg_wal')).filter((f) => /^[0-9A-F]{24}$/.test(f));
    const setWal = (flag: '+i' | '-i') =>
      rig!.chattr(
        flag,
        segments.map((s) => join(dataDir, 'pg_wal', s)),
      );
    setWal('+i');
    const replies: (AskResult | null)[] = [];
    // "Fast": well within what a person waits, even on a loaded CI machine; a spin would never answer.
    for (let i = 0; i < 5; i++) replies.push(keep(await ask(url, `Refused write? (${i})`, 15_000)));
    expect(replies.map((r) => r?.status)).toEqual([503, 503, 503, 503, 503]);
    const down = await health(url);
    expect(down?.status).toBe(503);
    expect(down?.body.failing).toEqual([
      { name: 'database', detail: expect.stringMatching(/stopped after a failed write \(PANIC: could not write/) },
    ]);

    setWal('-i');
    expect(await healthyWithin(url, 20_000)).toBe(true);
    expect(keep(await ask(url, 'How many days of annual leave do staff get? (reopened)'))?.status).toBe(200);
    expect((await stopWith(server, 'SIGTERM')).code).toBe(0);
    const stored = await storedInteractions(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 90_000);
});
