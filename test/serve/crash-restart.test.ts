import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { migratedStore } from '../support/migrated-store.js';
import { storedInteractions } from './disk-rig.js';
import { ask, cannotRun, health, startServe, stopWith, type ServeProcess } from './serve-process.js';

const why = cannotRun(['unshare', '--pid', '--fork', '--mount-proc', '--uts', 'true'], 'a PID namespace (unshare)');

/**
 * As in the image (deploy/Dockerfile): node is PID 1 of its own PID namespace,
 * the embedded store in a data folder that outlives the container. After a
 * SIGKILL the folder's lock names PID 1 — which is alive again, being the new
 * server itself — on a host name that no longer exists.
 */
describe.skipIf(why)(`a server SIGKILLed in its PID namespace${why ? ` (skipped: ${why})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'candor-crash-'));
  const servers: ServeProcess[] = [];
  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves again after a restart without anyone touching the lock, and every ask answered 200 is stored', async () => {
    // A copy of an empty migrated store (a SIGKILL loses no page the kernel holds, so an unsynced copy is as good).
    const dataDir = await migratedStore(join(dir, 'data'));
    const env = { CANDOR_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' };
    const first = startServe(env, { namespace: { hostname: 'candor-a' } });
    servers.push(first);
    const url = await first.serving(60_000);

    // Three clients ask without pause; the server is killed while they do.
    const acknowledged: number[] = [];
    let killed = false;
    const clients = [0, 1, 2].map(async (client) => {
      for (let i = 0; !killed; i++) {
        const reply = await ask(url, `How many days of annual leave do staff get? (${client}.${i})`);
        if (reply?.status === 200 && reply.interactionId !== null) acknowledged.push(reply.interactionId);
      }
    });
    for (let waited = 0; acknowledged.length < 30 && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    process.kill(first.pid, 'SIGKILL');
    killed = true;
    await first.exited;
    await Promise.all(clients);
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);

    // What the next container finds: a lock naming PID 1 on candor-a, and the dead server's socket file.
    expect(JSON.parse(readFileSync(join(dataDir, 'candor.lock'), 'utf8'))).toMatchObject({ pid: 1, host: 'candor-a', command: 'start' });
    expect(existsSync(join(dataDir, 'candor.lock.sock'))).toBe(true);

    const restarting = performance.now();
    const second = startServe(env, { namespace: { hostname: 'candor-b' } });
    servers.push(second);
    const url2 = await second.serving(60_000);
    const restartMs = Math.round(performance.now() - restarting);
    // Ready once the KB's index is built (a few ms here; /healthz says "warming up" until then).
    await expect
      .poll(() => health(url2), { timeout: 30_000 })
      .toMatchObject({ status: 200, body: { status: 'ok', kbs: [{ kb: 'default', version: 1 }] } });
    const after = await ask(url2, 'How many days of annual leave do staff get? (after the restart)');
    expect(after?.status).toBe(200);
    acknowledged.push(after!.interactionId!);
    expect(JSON.parse(readFileSync(join(dataDir, 'candor.lock'), 'utf8'))).toMatchObject({ pid: 1, host: 'candor-b' });

    const stop = await stopWith(second, 'SIGTERM');
    expect(stop.code).toBe(0);
    const stored = await storedInteractions(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    console.info(`restart after SIGKILL: serving again ${restartMs} ms after the new process started; SIGTERM exit: ${stop.ms} ms`);
  }, 120_000);
});
