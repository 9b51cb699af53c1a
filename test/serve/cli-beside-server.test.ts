import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';
import { startServe, stopWith, type ServeProcess } from './serve-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
/** A loaded CI machine starts tsx, opens PGlite and closes it slowly; a hang is what must fail. */
const SLOW_MS = 90_000;
const GYM = 'Do we get a discount on gym membership?';
const GYM_ANSWER = 'Staff get 20% off membership at FitWell gyms; show your staff card.';
const LEAVE = 'How many days of annual leave do full-time staff receive?';

/** `candor ARGS` as a process of its own, typed in `cwd` (paths in ARGS are relative to it). */
function candorIn(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // tsx by its path: `--import tsx` would be looked for in `cwd`
    const child = spawn(process.execPath, ['--import', TSX, `${ROOT}src/cli.ts`, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The embedded folder is the running server's alone: every other command is handed to it over the folder's lock
 * socket and runs there, on its root, so the bot answers from what a command changed at once, without a restart.
 */
describe('CLI commands beside a running server on the embedded store', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let server: ServeProcess | undefined;
  afterAll(() => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    files.cleanup();
  });

  it(
    'ingest, report gaps, gaps answer and ask run while it serves; its answers use the new facts; a second server is refused',
    async () => {
      const env = {
        CANDOR_DATA_DIR: await migratedStore(files.path('data')),
        PORT: '0',
        CANDOR_KB: 'handbook',
        CANDOR_EXPERTS: JSON.stringify([{ kb: 'handbook', people: ['cli:dana'] }]),
        LOG_LEVEL: 'info',
      };
      server = startServe(env, { args: ['serve'] });
      const url = await server.serving(SLOW_MS);
      const ask = async (question: string) => {
        const response = await fetch(`${url}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question }),
        });
        return (await response.json()) as { decision?: string; answer?: string; evidence?: { source: string }[]; error?: { code: string } };
      };
      expect((await ask(LEAVE)).error?.code).toBe('kb_not_found'); // nothing ingested yet

      // A relative path is the one typed in the caller's folder, read by the server.
      const ingest = await candorIn(files.path('.'), ['ingest', 'handbook.jsonl', '--json'], env);
      expect(ingest.code, ingest.stderr).toBe(0);
      expect(JSON.parse(ingest.stdout)).toMatchObject({ kb: { name: 'handbook', version: 1 }, facts: HANDBOOK_FACTS.length });
      expect(await ask(LEAVE)).toMatchObject({ decision: 'answer', answer: expect.stringContaining('18 days') });

      expect((await ask(GYM)).decision).toBe('abstain');
      const report = await candorInProcess(['report', 'gaps', '--json'], env);
      expect(report.code, report.stderr).toBe(0);
      const gap = (JSON.parse(report.stdout) as { groups: { id: number; question: string; state: string }[] }).groups.find(
        (g) => g.question === GYM,
      );
      expect(gap).toMatchObject({ state: 'open' });

      const answer = await candorInProcess(['gaps', 'answer', String(gap!.id), '--text', GYM_ANSWER, '--as', 'dana', '--json'], env);
      expect(answer.code, answer.stderr).toBe(0);
      expect(JSON.parse(answer.stdout)).toMatchObject({ outcome: 'answered', gapId: gap!.id, version: 2 });
      const fromExpert = await ask(GYM);
      expect(fromExpert).toMatchObject({ decision: 'answer', answer: expect.stringContaining('FitWell') });
      expect(fromExpert.evidence?.[0]?.source).toBe('expert:cli:dana');

      const cliAsk = await candorInProcess(['ask', GYM, '--json'], env);
      expect(cliAsk.code, cliAsk.stderr).toBe(0);
      expect(JSON.parse(cliAsk.stdout)).toMatchObject({ decision: 'answer', answer: expect.stringContaining('FitWell') });

      // A failing command fails here as it would on its own: its message, exit code 1.
      const missing = await candorInProcess(['kb', 'retire', '999999', '--json'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('"code":"not_found"');

      // A second server on the same folder is refused in one line that says what to do.
      const second = await candorInProcess(['serve'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`in use by process ${server.child.pid}`);

      // The server logs each handed command by its name, never its arguments (a question, an expert's answer).
      const handed = server
        .stderr()
        .split('\n')
        .filter((line) => line.includes('ran a command handed over'))
        .map((line) => JSON.parse(line) as { command: string; exit: number });
      expect(handed.map(({ command, exit }) => [command, exit])).toEqual(
        expect.arrayContaining([
          ['ingest', 0],
          ['gaps', 0],
          ['ask', 0],
          ['kb', 1],
        ]),
      );
      expect(server.stderr()).not.toContain(GYM_ANSWER);
      expect(server.stderr()).not.toContain('discount on gym');

      expect((await stopWith(server, 'SIGTERM')).code).toBe(0);
    },
    4 * SLOW_MS,
  );
});
