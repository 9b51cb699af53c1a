import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { lockDataDir } from '../../src/store/data-dir-lock.js';
import { runCli } from '../channels/run-cli.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'candor-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('one process per embedded data folder', () => {
  it('a second opener is told who holds the folder and what to do; the first releases it on close', () => {
    const dir = fresh();
    const first = lockDataDir(dir, 'serve');
    expect(JSON.parse(readFileSync(join(dir, 'candor.lock'), 'utf8'))).toMatchObject({ pid: process.pid, command: 'serve' });
    expect(() => lockDataDir(dir, 'ingest')).toThrow(
      expect.objectContaining({
        code: 'store_locked',
        message: expect.stringMatching(new RegExp(`${dir}.*process ${process.pid}.*"candor serve".*DATABASE_URL`, 's')),
      }),
    );
    first.release();
    expect(existsSync(join(dir, 'candor.lock'))).toBe(false);
    lockDataDir(dir, 'ingest').release();
  });

  it('takes over a lock whose process died without closing (SIGKILL, crash)', () => {
    const dir = fresh();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    writeFileSync(
      join(dir, 'candor.lock'),
      JSON.stringify({ pid: deadPid, host: hostname(), command: 'serve', since: '2026-01-01T00:00:00.000Z' }),
    );
    const lock = lockDataDir(dir, 'ask');
    expect(JSON.parse(readFileSync(join(dir, 'candor.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('candor ingest against a folder a running server holds fails with the reason, and nothing is lost: it works once the server stops', async () => {
    const dir = fresh();
    const env = { CANDOR_DATA_DIR: join(dir, 'data'), PORT: '0', LOG_LEVEL: 'warn' };
    const server = runCli(['serve'], env);
    await server.serving();
    const refused = runCli(['ingest', 'examples/policybench/cpf-facts.jsonl', '--kb', 'cpf'], env);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain(`The embedded database in ${join(dir, 'data')} is in use by process ${server.child.pid}`);
    expect(refused.stderr()).toContain('"candor serve"');
    expect(refused.stdout()).toBe('');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const again = runCli(['ingest', 'examples/policybench/cpf-facts.jsonl', '--kb', 'cpf', '--json'], env);
    expect(await again.exited, again.stderr()).toBe(0);
    expect(JSON.parse(again.stdout())).toMatchObject({ kb: { name: 'cpf', version: 1 }, facts: 112 });
  }, 60_000);

  it('a refused command leaves the server alone: it still answers, and releases the folder when it stops', async () => {
    const dir = fresh();
    const env = { CANDOR_DATA_DIR: join(dir, 'served'), LOG_LEVEL: 'warn' };
    const server = runCli(['serve'], { ...env, PORT: '0' });
    const url = await server.serving(60_000);
    const report = runCli(['report', 'gaps'], env);
    expect(await report.exited).toBe(1);
    expect(report.stderr()).toContain(`is in use by process ${server.child.pid}`);
    expect(report.stderr()).toContain('its console at /');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dir, 'served', 'candor.lock'))).toBe(false);
    const migrate = runCli(['migrate'], env);
    expect(await migrate.exited, migrate.stderr()).toBe(0);
  }, 120_000);
});
