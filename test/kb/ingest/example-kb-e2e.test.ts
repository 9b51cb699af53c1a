import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PROCESS_TEST_MS, runCli } from '../../channels/run-cli.js';
import { candorInProcess } from '../../support/cli-in-process.js';
import { tempFiles } from '../../support/compose.js';
import { migratedStore } from '../../support/migrated-store.js';
import { guidePdf } from './document-fixtures.js';

const QUESTION = 'What is the maximum claim limit per policy year under MediShield Life?';
const ROW = 'Maximum claim limit, Per policy year: $200,000';

interface DecisionJson {
  decision: string;
  answer: string;
  reasons: Array<{ layer: string; code: string | null; detail: string }>;
  evidence: Array<{ text: string; source: string }>;
}

/** Parses the one JSON object `--json` prints, with the process's stderr in the message when it is not one. */
function onlyJson<T>(stdout: string, stderr: string): T {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  expect(lines, `stdout: ${stdout}\nstderr: ${stderr}`).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}

/**
 * The question a citizen asks about the booklet's claim-limit table, through
 * the `candor` command (ingest and ask --json through the bin's entry point in
 * this process; serve + POST /api/ask as a process of its own), on an on-disk
 * embedded database.
 */
describe('the MediShield claim limit, end to end', () => {
  const dirs = tempFiles({}, 'candor-medishield-');
  const env = { CANDOR_DATA_DIR: dirs.path('data'), LOG_LEVEL: 'warn' };
  afterAll(() => dirs.cleanup());

  beforeAll(async () => {
    await migratedStore(env.CANDOR_DATA_DIR);
    const run = await candorInProcess(['ingest', 'examples/kb', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const summary = onlyJson<{ documents: number; errors: unknown[]; byType: Record<string, { tableRows: number }> }>(
      run.stdout,
      run.stderr,
    );
    expect(summary).toMatchObject({ documents: 120, errors: [] });
    expect(summary.byType.text?.tableRows).toBeGreaterThan(0);
  }, 60_000);

  const expectRowCited = (body: DecisionJson): void => {
    const refused = body.reasons.filter((reason) => reason.code !== null);
    expect(body.decision, `refused by ${JSON.stringify(refused)}`).toBe('answer');
    expect(body.evidence.map((fact) => fact.text)).toContain(ROW);
    expect(body.answer).toContain('$200,000');
  };

  it('candor ask --json cites the fact holding the row label and the amount', async () => {
    const run = await candorInProcess(['ask', QUESTION, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expectRowCited(onlyJson<DecisionJson>(run.stdout, run.stderr));
  }, 60_000);

  it(
    'POST /api/ask cites it too',
    async () => {
      const run = runCli(['serve'], { ...env, PORT: '0' });
      try {
        const url = await run.serving();
        const res = await fetch(`${url}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: QUESTION }),
        });
        expect(res.status).toBe(200);
        expectRowCited((await res.json()) as DecisionJson);
      } finally {
        run.child.kill('SIGTERM');
      }
      expect(await run.exited).toBe(0);
    },
    PROCESS_TEST_MS,
  );

  it('candor ingest --json names an unreadable PDF, stores the rest and exits 1', async () => {
    mkdirSync(dirs.path('batch'));
    dirs.write('batch/guide.pdf', guidePdf());
    dirs.write('batch/locked.pdf', guidePdf({ userPassword: 'hunter2' }));
    const run = await candorInProcess(['ingest', dirs.path('batch'), '--kb', 'batch', '--json'], env);
    expect(run.code).toBe(1);
    const summary = onlyJson<Record<string, unknown>>(run.stdout, run.stderr);
    expect(summary).toMatchObject({
      documents: 1,
      added: 1,
      facts: 9,
      errors: [{ path: dirs.path('batch/locked.pdf'), reason: expect.stringContaining('password-protected PDF') }],
      byType: { pdf: { files: 1, facts: 9, tableRows: 4, skipped: 0, errors: 1 } },
    });
    expect(run.stderr).toContain(`candor: failed ${dirs.path('batch/locked.pdf')}: password-protected PDF`);
  }, 60_000);
});
