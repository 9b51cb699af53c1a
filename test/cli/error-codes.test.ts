import { truncateSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess, type CliResult } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

interface ErrorLine {
  readonly error: { readonly code: string; readonly message: string; readonly retryable: boolean };
}

/**
 * A failed `--json` command: exit 1, the usual `candor: …` line, then the error as JSON (the last line on stderr)
 * with the code a script switches on (docs/commands.md#errors). Stdout holds only what the command printed itself.
 */
function failure(run: CliResult, stdout = ''): ErrorLine['error'] {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe(stdout);
  const lines = run.stderr.trimEnd().split('\n');
  const parsed = JSON.parse(lines.at(-1) as string) as ErrorLine;
  expect(run.stderr.endsWith(`candor: ${parsed.error.message}\n${lines.at(-1)}\n`)).toBe(true);
  return parsed.error;
}

/** What failed, by its code, through the command line's entry point: one representative case per code. */
describe('candor error codes', () => {
  const files = tempFiles(
    {
      'handbook.jsonl': jsonl(HANDBOOK_FACTS),
      'bad.jsonl': '{"id":"r1","question":"How many days?","response":"18 days."}\nnot json\n',
      'few.jsonl': jsonl([{ id: 'q1', question: 'How many days of annual leave do staff get?', factId: 'HB-1' }]),
      'unknown-facts.jsonl': jsonl([{ id: 'q1', question: 'How many days of annual leave?', factId: 'NOPE-1' }]),
    },
    'candor-error-codes-',
  );
  let env: Record<string, string>;
  const candor = (args: readonly string[], extra: Record<string, string> = {}) =>
    candorInProcess(args, { ...env, LOG_LEVEL: 'silent', ...extra });

  beforeAll(async () => {
    env = { CANDOR_DATA_DIR: await migratedStore(files.path('data')), CANDOR_KB: 'handbook' };
    expect((await candor(['ingest', files.path('handbook.jsonl'), '--kb', 'handbook'])).code).toBe(0);
  });
  afterAll(() => files.cleanup());

  it('a missing file is file_not_found; one over the limit file_too_large; a bad row file_malformed, naming its line', async () => {
    const missing = failure(await candor(['eval', 'detect', '--responses', files.path('nope.jsonl'), '--json']));
    expect(missing).toMatchObject({ code: 'file_not_found', retryable: false });
    expect(missing.message).toContain('nope.jsonl');

    const huge = files.write('huge.jsonl', '');
    truncateSync(huge, 300 * 1024 * 1024); // sparse: refused by its size before a byte is read
    expect(failure(await candor(['eval', 'detect', '--responses', huge, '--json']))).toMatchObject({ code: 'file_too_large' });

    const bad = failure(await candor(['eval', 'detect', '--responses', files.path('bad.jsonl'), '--json']));
    expect(bad).toMatchObject({ code: 'file_malformed', message: expect.stringContaining('line 2: not valid JSON') });
  });

  it('a flag with a value it cannot take is option_invalid; a command needing a model without one, llm_not_configured', async () => {
    const target = ['eval', 'calibrate', '--kb', 'handbook', '--from-labels', '--target-abstention', '2', '--json'];
    expect(failure(await candor(target))).toMatchObject({ code: 'option_invalid', message: expect.stringContaining('got "2"') });
    const judge = ['judge', 'add', '--name', 'strict', '--task', 'abstention', '--criteria', 'Refuse.', '--json'];
    expect(failure(await candor(judge))).toMatchObject({ code: 'llm_not_configured', message: expect.stringContaining('--model') });
  });

  it('an unknown id is not_found, whether typed (a fact, a gap) or named by a file (fact ids the KB lacks)', async () => {
    expect(failure(await candor(['kb', 'retire', '99999', '--json']))).toMatchObject({ code: 'not_found' });
    // gaps prints its outcome with --json all the same; the error line comes after it, on stderr.
    const gap = await candor(['gaps', 'dismiss', '99999', '--as', 'eve', '--json']);
    expect(failure(gap, '{"outcome":"no_gap"}\n')).toMatchObject({ code: 'not_found' });
    const loo = ['eval', 'calibrate', '--kb', 'handbook', '--questions', files.path('unknown-facts.jsonl'), '--json'];
    expect(failure(await candor(loo))).toMatchObject({ code: 'not_found', message: expect.stringContaining('NOPE-1') });
  });

  it('too few items to calibrate on is too_little_data', async () => {
    const run = await candor(['eval', 'calibrate', '--kb', 'handbook', '--questions', files.path('few.jsonl'), '--out', files.path('cal')]);
    expect(run.code).toBe(1);
    // Without --json: the human line is the last, and no JSON follows it.
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/^candor: Too little to calibrate on/);
    const json = await candor(['eval', 'calibrate', '--kb', 'handbook', '--questions', files.path('few.jsonl'), '--json']);
    expect(failure(json)).toMatchObject({ code: 'too_little_data' });
  });

  it('someone not listed is not_permitted; a change already made is a conflict', async () => {
    const label = ['review', 'label', '1', 'abstention', 'correct', '--as', 'mallory', '--json'];
    expect(failure(await candor(label, { CANDOR_REVIEWERS: 'cli:alice' }))).toMatchObject({ code: 'not_permitted' });
    const first = await candor(['kb', 'retire', '1', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const again = failure(await candor(['kb', 'retire', '1', '--json']));
    expect(again).toMatchObject({ code: 'conflict', message: 'Fact 1 was already retired (in version 2).', retryable: false });
  });

  it('an unknown knowledge base keeps kb_not_found', async () => {
    const run = await candor(['ask', 'How many days of annual leave?', '--kb', 'nosuch', '--json']);
    expect(failure(run)).toMatchObject({ code: 'kb_not_found', retryable: false });
  });
});
