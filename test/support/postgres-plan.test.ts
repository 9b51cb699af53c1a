import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { PROCESS_TEST_MS } from '../channels/run-cli.js';
import { BINARY_FILES, isCi, POSTGRES_URL, postgresPlan, probePostgres, SERVER_FILES } from './postgres-plan.js';
import { withoutPostgres } from './stores.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const found = { ci: false, url: 'postgres://ann:s3cret@db.example:5432/test', unreachable: null, noBinaries: null };

describe('which PostgreSQL tests a run has', () => {
  it('everything, and nothing said, on a machine with the server and the binaries', () => {
    expect(postgresPlan(found)).toEqual({ server: true, binaries: true, excluded: [], note: null });
  });

  it('without the server, outside CI: its tests left out, and one line saying where it looked, why, and how to run them', () => {
    const plan = postgresPlan({ ...found, unreachable: 'connect ECONNREFUSED 10.0.0.5:5432' });
    expect(plan).toMatchObject({ server: false, binaries: true, excluded: SERVER_FILES });
    expect(plan.note).toBe(
      'PostgreSQL is not reachable at postgres://ann:***@db.example:5432/test (connect ECONNREFUSED 10.0.0.5:5432): the tests that ' +
        'need it were skipped. To run them too, start PostgreSQL there, with that database and a user who may create databases ' +
        '(.ci/run sets this up), or point CANDOR_TEST_DATABASE_URL at one.',
    );
    expect(plan.note).not.toContain('\n');
  });

  it('without the server binaries, outside CI: the tests that start clusters of their own left out', () => {
    const plan = postgresPlan({ ...found, noBinaries: 'no /usr/lib/postgresql' });
    expect(plan).toMatchObject({ server: true, binaries: false, excluded: BINARY_FILES });
    expect(plan.note).toMatch(
      /^its server binaries are not installed \(no \/usr\/lib\/postgresql\): .*install the postgresql server package\.$/,
    );
  });

  it('in CI: everything runs, so a missing server fails its tests; the line says so', () => {
    const plan = postgresPlan({ ...found, ci: true, unreachable: 'timeout', noBinaries: 'no initdb' });
    expect(plan).toMatchObject({ server: true, binaries: true, excluded: [] });
    expect(plan.note).toMatch(
      /^PostgreSQL is not reachable at .* \(timeout\), and the PostgreSQL server binaries are missing .*: CI=true, so the tests that need it run, and fail\.$/,
    );
    expect(postgresPlan({ ...found, ci: true }).note).toBeNull();
  });

  it('CI is any CI value but empty, 0 or false', () => {
    expect([undefined, '', '0', 'false', 'FALSE', ' '].map((CI) => isCi({ CI }))).toEqual([false, false, false, false, false, false]);
    expect(['true', '1', 'yes', 'woodpecker'].map((CI) => isCi({ CI }))).toEqual([true, true, true, true]);
  });

  it('every test file that needs PostgreSQL is left out whole, or skips its PostgreSQL part, without it', () => {
    const files = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `test/${file}`);
    for (const file of [...SERVER_FILES, ...BINARY_FILES]) expect(existsSync(join(ROOT, file)), file).toBe(true);
    for (const file of files) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const server = /createTestStore\('postgres'\)|useTestStore\('postgres'\)|storeContract\('postgres'\)|createTestDatabase\(/.test(
        source,
      );
      const binaries = /startOwnPostgres\(/.test(source);
      if (binaries) expect(BINARY_FILES, file).toContain(file);
      if (server && !SERVER_FILES.includes(file))
        expect(source, `${file} needs PostgreSQL: list it in SERVER_FILES or skip with withoutPostgres`).toMatch(/withoutPostgres|DRIVERS/);
    }
  });
});

describe('looking for the server', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const listen = async (onConnection: (socket: Socket) => void = () => undefined): Promise<number> => {
    const server = createServer((socket) => {
      sockets.push(socket);
      onConnection(socket);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  };

  it('a port nobody listens on is refused, and says so', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    expect(await probePostgres(`postgres://ann@127.0.0.1:${port}/test`, 2_000)).toMatch(/ECONNREFUSED/);
  });

  it('a server that accepts but never answers as PostgreSQL is not taken for one, within the time given', async () => {
    const port = await listen();
    const started = Date.now();
    expect(await probePostgres(`postgres://ann@127.0.0.1:${port}/test`, 500)).toMatch(/timeout/i);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a server that closes the connection at once is not taken for one', async () => {
    const port = await listen((socket) => socket.destroy());
    expect(await probePostgres(`postgres://ann@127.0.0.1:${port}/test`, 2_000)).toEqual(expect.any(String));
  });

  it.skipIf(withoutPostgres)('the test server answers (this run has it)', async () => {
    expect(await probePostgres(POSTGRES_URL)).toBeNull();
  });
});

/** `vitest run FILES` as `npm test` runs it, with only the environment given (no VITEST_* of this run). */
function vitest(files: readonly string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...files], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('npm test on a machine without PostgreSQL', () => {
  // A server nobody listens on: what a machine without PostgreSQL looks like to the tests.
  const nowhere = 'postgres://127.0.0.1:1/test';
  const files = ['test/review/judge/judge-specs.test.ts', 'test/store/postgres.test.ts'];

  it(
    'runs what does not need it, passes, and ends with one line on how to run the rest',
    async () => {
      const run = await vitest(files, { CANDOR_TEST_DATABASE_URL: nowhere });
      expect(run.code, run.output).toBe(0);
      // judge-specs on PGlite only; the PostgreSQL-only file left out
      expect(run.output).toMatch(/Test Files {2}1 passed \(1\)/);
      expect(run.output).toMatch(/Tests {2}3 passed \(3\)/);
      expect(run.output.match(/PostgreSQL is not reachable/g)).toHaveLength(1);
      expect(run.output.trimEnd().split('\n').at(-1)).toMatch(
        /^PostgreSQL is not reachable at postgres:\/\/\S+@127\.0\.0\.1:1\/test \(.*ECONNREFUSED.*\): the tests that need it were skipped\. .*CANDOR_TEST_DATABASE_URL/,
      );
    },
    PROCESS_TEST_MS,
  );

  it(
    'in CI (CI=true, as .ci/run sets it) runs them all, and fails',
    async () => {
      const run = await vitest(files, { CANDOR_TEST_DATABASE_URL: nowhere, CI: 'true' });
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/Test Files {2}2 failed \(2\)/);
      expect(run.output).toContain('Cannot connect to PostgreSQL at');
      expect(run.output).toContain('CI=true, so the tests that need it run, and fail.');
    },
    PROCESS_TEST_MS,
  );
});
