import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { commandPaths } from '../../src/cli/program.js';
import { PROCESS_TEST_MS } from '../channels/run-cli.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Only what a deployment sets: nothing of this test process's own environment leaks in. */
const BASE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn' };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Run {
  const result = spawnSync(command, args, { cwd: options.cwd, env: { ...BASE_ENV, ...options.env }, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runAsync(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...BASE_ENV, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running command; resolves its URL once it says where it serves. */
function serving(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string> }) {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...BASE_ENV, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const match = /Candor is serving on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1] as string);
      else if (child.exitCode !== null || Date.now() - started > 60_000) reject(new Error(`did not start serving:\n${stderr}`));
      else return;
      clearInterval(poll);
    }, 50);
  });
  return { child, url, exited, stderr: () => stderr };
}

async function refused(url: string): Promise<boolean> {
  return fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
    () => false,
    () => true,
  );
}

describe('the npm package', () => {
  const dirs = tempFiles({}, 'candor-pack-');
  let files: string[] = [];
  let bin = '';

  beforeAll(() => {
    // `npm pack` runs the build (prepack), as a publish would.
    const packed = run('npm', ['pack', '--json', '--pack-destination', dirs.dir], { cwd: ROOT });
    expect(packed.code, packed.stderr).toBe(0);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    files = info!.files.map((f) => f.path);
    const unpacked = run('tar', ['-xzf', join(dirs.dir, info!.filename), '-C', dirs.dir], { cwd: dirs.dir });
    expect(unpacked.code, unpacked.stderr).toBe(0);
    // The installed package resolves its dependencies from a node_modules beside it, as after `npm install`.
    symlinkSync(join(ROOT, 'node_modules'), join(dirs.dir, 'package', 'node_modules'), 'dir');
    bin = join(dirs.dir, 'package', 'bin', 'candor.js');
  }, 180_000);
  afterAll(() => dirs.cleanup());

  it('holds bin/ and the compiled dist/ with its migrations, model and example KB, and no tests, benches or sources', () => {
    expect(files).toContain('bin/candor.js');
    expect(files).toContain('dist/src/cli.js');
    expect(files).toContain('dist/src/core/gate/model/answerability.json');
    expect(files).toContain('dist/migrations/meta/_journal.json');
    expect(files.some((f) => /^dist\/migrations\/0000_.*\.sql$/.test(f))).toBe(true);
    expect(files.some((f) => f.startsWith('dist/examples/kb/medishield-life/'))).toBe(true);
    expect(files.filter((f) => /^(test|bench|scripts|src)\//.test(f) || f.endsWith('.ts'))).toEqual([]);
  });

  it('`candor --version` prints the package version', () => {
    const result = run(process.execPath, [bin, '--version'], { cwd: dirs.dir });
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('`candor <command> --help` works for every command, even with a broken setting', async () => {
    const usage = run(process.execPath, [bin, '--help'], { cwd: dirs.dir });
    const listed = new Set([...usage.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1] as string));
    const commands = commandPaths().filter((path) => !path.includes(' '));
    expect([...listed].sort()).toEqual([...commands, 'help'].sort());
    // Every page from the packed build, in this process through the runCli the bin calls (one node start per
    // command would be ~15 processes loading the whole CLI at once); the bin itself runs for the usage above,
    // an unknown command below, --version and the image's `serve --help`.
    const { runCli } = (await import(join(dirs.dir, 'package', 'dist', 'src', 'cli.js'))) as { runCli: (argv: string[]) => void };
    for (const command of commands) {
      const result = await candorInProcess([command, '--help'], { PORT: 'not-a-port' }, runCli);
      expect(result.code, `${command}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`candor ${command}\\b`));
    }
    expect(run(process.execPath, [bin, 'nosuch', '--help'], { cwd: dirs.dir }).code).toBe(2);
  });

  it(
    'the container image’s start command (ENTRYPOINT + CMD of deploy/Dockerfile) runs the built CLI',
    () => {
      const dockerfile = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8');
      const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
      const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
      expect(entrypoint).toEqual(['node', 'bin/candor.js']);
      const packageDir = join(dirs.dir, 'package');
      expect(existsSync(join(packageDir, entrypoint[1]!))).toBe(true);
      expect(existsSync(join(packageDir, 'dist/src/cli.js'))).toBe(true);
      const help = run(process.execPath, [entrypoint[1]!, ...cmd, '--help'], { cwd: packageDir });
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^Usage: candor serve/);
      const migrated = run(process.execPath, [entrypoint[1]!, 'migrate'], {
        cwd: packageDir,
        env: { CANDOR_DATA_DIR: join(dirs.dir, 'migrated') },
      });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.stderr).toContain('migrations applied (store: pglite)');
    },
    PROCESS_TEST_MS,
  );

  describe('with the CPF facts ingested by the packed CLI from another working directory', () => {
    const env = { CANDOR_DATA_DIR: join(dirs.dir, 'data') };
    let ingested: Run;
    beforeAll(async () => {
      // A copy of an empty migrated store (migrating a new folder is the image's `migrate` test above).
      await migratedStore(env.CANDOR_DATA_DIR);
      ingested = await runAsync(
        process.execPath,
        [bin, 'ingest', join(ROOT, 'examples/policybench/cpf-facts.jsonl'), '--kb', 'cpf', '--json'],
        {
          cwd: dirs.dir,
          env,
        },
      );
    });

    it('ingests and asks from another working directory', () => {
      expect(ingested.code, ingested.stderr).toBe(0);
      const asked = run(process.execPath, [bin, 'ask', 'Who won the 1998 World Cup?', '--kb', 'cpf', '--json'], { cwd: dirs.dir, env });
      expect(asked.code, asked.stderr).toBe(0);
      const body = JSON.parse(asked.stdout) as Record<string, unknown>;
      expect(body).toMatchObject({ decision: 'abstain', answer: null, refusal: expect.any(String), interactionId: expect.any(Number) });
    });

    it(
      '`candor ask --json` prints the same object as POST /api/ask for the same question',
      async () => {
        expect(ingested.code, ingested.stderr).toBe(0);
        const cpf = { ...env, CANDOR_KB: 'cpf' };
        const question = 'Can the minimum income criterion be waived for workers who want to work more but are unable to?';
        const cli = JSON.parse(run(process.execPath, [bin, 'ask', question, '--json'], { cwd: dirs.dir, env: cpf }).stdout) as Record<
          string,
          unknown
        >;
        const server = serving(process.execPath, [bin, 'serve'], { cwd: dirs.dir, env: { ...cpf, PORT: '0' } });
        const url = await server.url;
        const api = (await (
          await fetch(`${url}/api/ask`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ question }),
          })
        ).json()) as Record<string, unknown>;
        server.child.kill('SIGTERM');
        await server.exited;
        const stable = ({ traceId, latencyMs, interactionId, ...rest }: Record<string, unknown>) => [
          rest,
          typeof traceId,
          typeof latencyMs,
          typeof interactionId,
        ];
        expect(Object.keys(cli).sort()).toEqual(Object.keys(api).sort());
        expect(stable(cli)).toEqual(stable(api));
        expect(cli.decision).toBe('answer');
      },
      PROCESS_TEST_MS,
    );
  });

  it('`candor start` serves the example KB from any working directory, and SIGTERM stops it', async () => {
    const elsewhere = join(dirs.dir, 'elsewhere');
    mkdirSync(elsewhere);
    // An empty migrated store: `start` finds its knowledge base empty, as on a first run.
    const server = serving(process.execPath, [bin, 'start'], {
      cwd: elsewhere,
      env: { CANDOR_DATA_DIR: await migratedStore(join(elsewhere, 'data')), PORT: '0' },
    });
    const url = await server.url;
    const res = await fetch(`${url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is the fire assembly point?' }),
    });
    const decision = (await res.json()) as { kb: { version: number } };
    expect(decision.kb.version).toBe(1); // the example KB was ingested: not an empty KB
    expect(server.stderr()).toMatch(/120 documents/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await refused(url)).toBe(true);
  }, 120_000);

  it('SIGTERM to `npm start` stops the server too (no orphan left serving)', async () => {
    const data = await migratedStore(join(dirs.dir, 'npm-start'));
    const server = serving('npm', ['start'], { cwd: ROOT, env: { CANDOR_DATA_DIR: data, PORT: '0' } });
    const url = await server.url;
    // The data folder it was given, and held: its lock note is there while it serves (the folder itself was copied in).
    expect(existsSync(data)).toBe(true);
    expect(existsSync(join(data, 'candor.lock'))).toBe(true);
    server.child.kill('SIGTERM');
    await server.exited;
    // The server process itself, not only npm, must be gone: its port refuses connections.
    const deadline = Date.now() + 10_000;
    while (!(await refused(url)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await refused(url)).toBe(true);
  }, 120_000);
});
