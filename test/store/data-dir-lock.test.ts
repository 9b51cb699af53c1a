import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

import { lockDataDir } from '../../src/store/data-dir-lock.js';
import { currentIdentity, provablyGone } from '../../src/store/process-identity.js';
import { PROCESS_TEST_MS, runCli } from '../channels/run-cli.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { migratedStore } from '../support/migrated-store.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'candor-lock-'));
  dirs.push(dir);
  return dir;
};
/** A folder whose socket path is longer than sun_path's 107 bytes. */
const deep = () => {
  const dir = join(fresh(), 'd'.repeat(60), 'e'.repeat(60));
  mkdirSync(dir, { recursive: true });
  return dir;
};
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Another process that takes the folder's lock (test/store/hold-lock.ts); resolves with its first line. */
function holder(dir: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/store/hold-lock.ts', dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve({ child, line: out.split('\n')[0]! });
    });
    child.once('exit', (code) => (out.includes('\n') ? undefined : reject(new Error(`hold-lock exited ${code}`))));
  });
}
const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
const note = (dir: string) => JSON.parse(readFileSync(join(dir, 'candor.lock'), 'utf8')) as Record<string, unknown>;

describe('one process per embedded data folder', () => {
  it('a second opener is told who holds the folder and what to do; the first releases it on close', async () => {
    const dir = fresh();
    const first = await lockDataDir(dir, 'serve');
    expect(note(dir)).toMatchObject({ pid: process.pid, command: 'serve', mode: 'socket' });
    await expect(lockDataDir(dir, 'ingest')).rejects.toThrow(
      expect.objectContaining({
        code: 'store_locked',
        message: expect.stringMatching(new RegExp(`${dir}.*process ${process.pid}.*"candor serve".*DATABASE_URL`, 's')),
      }),
    );
    first.release();
    expect(existsSync(join(dir, 'candor.lock'))).toBe(false);
    expect(existsSync(join(dir, 'candor.lock.sock'))).toBe(false);
    (await lockDataDir(dir, 'ingest')).release();
  });

  it.each([
    ['a short path', fresh],
    ['a path longer than sun_path (reached through /proc/self/fd)', deep],
  ])(
    'in %s: a live holder in another process refuses; once it is SIGKILLed its lock and socket are taken over',
    async (_, folder) => {
      const dir = folder();
      const { child, line } = await holder(dir);
      expect(line).toBe('locked');
      expect(note(dir)).toMatchObject({ pid: child.pid, mode: 'socket' });
      await expect(lockDataDir(dir, 'ingest')).rejects.toThrow(
        expect.objectContaining({ message: expect.stringContaining(`process ${child.pid}`) }),
      );
      await killed(child);
      // What a restarted container finds: the dead holder's note names a PID that is alive again (here: this very process).
      expect(existsSync(join(dir, 'candor.lock.sock'))).toBe(true);
      writeFileSync(join(dir, 'candor.lock'), JSON.stringify({ ...note(dir), pid: process.pid, host: 'a-container-gone' }));
      const lock = await lockDataDir(dir, 'serve');
      expect(note(dir)).toMatchObject({ pid: process.pid, host: hostname(), command: 'serve' });
      lock.release();
    },
    PROCESS_TEST_MS,
  );

  it(
    "of several processes racing for a dead holder's folder, exactly one takes it",
    async () => {
      const dir = fresh();
      const first = await holder(dir);
      await killed(first.child);
      const lines = (await Promise.all(Array.from({ length: 5 }, () => holder(dir)))).map((h) => h.line);
      expect(lines.filter((l) => l === 'locked')).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith('refused: store_locked'))).toHaveLength(4);
    },
    PROCESS_TEST_MS,
  );

  it('takes over an older note-only lock whose process died (no socket was left)', async () => {
    const dir = fresh();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    writeFileSync(
      join(dir, 'candor.lock'),
      JSON.stringify({ pid: deadPid, host: hostname(), command: 'serve', since: '2026-01-01T00:00:00.000Z' }),
    );
    const lock = await lockDataDir(dir, 'ask');
    expect(note(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('where only the note can lock, a holder counts as gone only when provably so', () => {
    const me = currentIdentity();
    expect(me).toMatchObject({ bootId: expect.any(String), pidNs: expect.any(String), startTicks: expect.any(String) });
    const other = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    // Same kernel and PID namespace: a free PID, or one now naming a process started at another time, is gone.
    expect(provablyGone({ ...me, pid: Number(other.stdout) }, me)).toBe(true);
    expect(provablyGone({ ...me, startTicks: '1' }, me)).toBe(true);
    expect(provablyGone({ ...me, pid: process.ppid }, me)).toBe(true); // the parent, but not started at our start time
    expect(provablyGone(me, me)).toBe(false);
    // PID 1 of another container (another PID namespace, same kernel): cannot be seen from here.
    expect(provablyGone({ ...me, pid: 1, pidNs: 'pid:[1]', host: 'c0ffee' }, me)).toBe(false);
    // The machine rebooted under the same host name: gone. Another machine sharing the folder: not provably.
    expect(provablyGone({ ...me, bootId: 'before-reboot' }, me)).toBe(true);
    expect(provablyGone({ ...me, bootId: 'other-machine', host: 'elsewhere' }, me)).toBe(false);
  });

  // The server and the first command are processes of their own; the command after it runs in this
  // process (one more that is not the server), through the bin's entry point, on a copy of a migrated store.
  it(
    'candor ingest against a folder a running server holds runs on that server, and nothing is lost when it stops',
    async () => {
      const dir = fresh();
      const env = { CANDOR_DATA_DIR: await migratedStore(join(dir, 'data')), PORT: '0', LOG_LEVEL: 'warn' };
      const server = runCli(['serve'], env);
      await server.serving();
      const handed = runCli(['ingest', 'examples/policybench/cpf-facts.jsonl', '--kb', 'cpf', '--json'], env);
      expect(await handed.exited, handed.stderr()).toBe(0);
      expect(JSON.parse(handed.stdout())).toMatchObject({ kb: { name: 'cpf', version: 1 }, facts: 112 });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const again = await candorInProcess(['ingest', 'examples/policybench/cpf-facts.jsonl', '--kb', 'cpf', '--json'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ kb: { name: 'cpf', version: 1 }, unchanged: 1 });
    },
    PROCESS_TEST_MS,
  );

  it('a command beside a holder that takes no commands is refused with who holds it; the holder is left alone', async () => {
    const dir = fresh();
    const held = await holder(dir);
    expect(held.line).toBe('locked');
    const env = { CANDOR_DATA_DIR: dir, LOG_LEVEL: 'warn' };
    const report = await candorInProcess(['report', 'gaps'], env);
    expect(report.code).toBe(1);
    expect(report.stderr).toContain(`is in use by process ${held.child.pid}`);
    expect(report.stdout).toBe('');
    expect(held.child.exitCode).toBeNull();
    await killed(held.child);
    const migrate = await candorInProcess(['migrate'], env);
    expect(migrate.code, migrate.stderr).toBe(0);
  }, 120_000);
});
