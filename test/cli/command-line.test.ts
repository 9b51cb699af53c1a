import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { commandHelp, commandPaths } from '../../src/cli/program.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

// The command line as a person meets it: help per command, usage errors that name what was wrong (exit 2),
// JSON for every result, and numbers written for people. In-process through the entry point bin/candor.js calls.
const dir = mkdtempSync(join(tmpdir(), 'candor-command-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each leaf command and options only it has: its help lists them, and the other commands' help does not. */
const OWN_OPTIONS: Record<string, readonly string[]> = {
  'eval calibrate': ['--target-abstention', '--from-labels', '--apply'],
  'eval loo': ['--behind', '--markdown'],
  'eval generate': ['--per-fact', '--per-category', '--categories'],
  'review sample': ['--seed'],
  'review import': ['--annotator'],
  'judge add': ['--criteria', '--outcomes', '--model'],
  'report agreement': ['--run'],
  'report gaps': ['--days'],
  'gaps answer': ['--text'],
  'kb facts': ['--all', '--source'],
};

describe('candor --help and usage errors', () => {
  it('every command and subcommand has a help page naming it, printed with no setting read (even a broken one)', async () => {
    const paths = commandPaths();
    expect(paths).toEqual(
      expect.arrayContaining(['ask', 'ingest', 'migrate', 'eval loo', 'eval calibrate', 'report agreement', 'kb confirm']),
    );
    for (const path of paths) {
      const result = await candorInProcess([...path.split(' '), '--help'], { PORT: 'not-a-port' });
      expect(result.code, `${path}: ${result.stderr}`).toBe(0);
      expect(result.stdout, path).toMatch(new RegExp(`^Usage: candor ${path}\\b`));
      expect(result.stdout, path).toContain('--help');
    }
  });

  it("a command's help lists its own options and not another command's", () => {
    for (const [path, own] of Object.entries(OWN_OPTIONS)) {
      const page = commandHelp(path) ?? '';
      for (const option of own) expect(page, `${path} ${option}`).toContain(option);
      const others = Object.entries(OWN_OPTIONS)
        .filter(([other]) => other !== path)
        .flatMap(([, options]) => options)
        .filter((option) => !own.includes(option));
      for (const option of others) expect(page, `${path} must not offer ${option}`).not.toMatch(new RegExp(`${option}\\b`));
    }
  });

  it("an unknown option exits 2, names the option and shows that command's own usage", async () => {
    const result = await candorInProcess(['ask', 'hello', '--seed', '5', '--apply']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^candor: unknown option '--seed'/);
    expect(result.stderr).toContain('Usage: candor ask [options] <question...>');
    expect(result.stderr).not.toContain('eval calibrate'); // not the whole program's usage
  });

  it('a missing argument, a missing required option, a bad number and an unknown command exit 2 naming what was wrong', async () => {
    const missing = await candorInProcess(['review', 'show']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'id'/);
    const required = await candorInProcess(['eval', 'loo', '--kb', 'x']);
    expect(required.code).toBe(2);
    expect(required.stderr).toMatch(/required option '--questions <file>' not specified/);
    const expert = await candorInProcess(['kb', 'confirm', '7']);
    expect(expert.code).toBe(2);
    expect(expert.stderr).toMatch(/required option '--as <name>' not specified/);
    const number = await candorInProcess(['report', 'gaps', '--days', 'lots']);
    expect(number.code).toBe(2);
    expect(number.stderr).toMatch(/'--days <n>' argument 'lots' is invalid\. expected a whole number from 1 to 3,650/);
    const unknown = await candorInProcess(['nosuch', '--help']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^candor: unknown command 'nosuch'/);
    const group = await candorInProcess(['eval']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('Usage: candor eval');
  });

  it('--version, version and help COMMAND answer with exit 0', async () => {
    const [flag, word, help] = [
      await candorInProcess(['--version']),
      await candorInProcess(['version']),
      await candorInProcess(['help', 'report']),
    ];
    expect(flag).toMatchObject({ code: 0 });
    expect(flag.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(word.stdout).toBe(flag.stdout);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: candor report/);
  });
});

describe('candor commands on an empty store', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = { CANDOR_DATA_DIR: await migratedStore(join(dir, 'data')), LOG_LEVEL: 'silent', CANDOR_REVIEWERS: 'cli:alice' };
  });

  it('migrate --json prints one JSON object', async () => {
    const result = await candorInProcess(['migrate', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ migrated: true, store: 'pglite' });
  });

  it('report agreement with no report yet is an answer, not a failure: {"report":null,…} and exit 0; text says how to make one', async () => {
    const json = await candorInProcess(['report', 'agreement', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ report: null, message: expect.stringContaining('candor report agreement --run') });
    const text = await candorInProcess(['report', 'agreement'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('No agreement report yet');
  });

  it('judge add without a model says what to give, not a validation dump', async () => {
    const result = await candorInProcess(['judge', 'add', '--name', 'strict', '--task', 'abstention', '--criteria', 'Refuse.'], env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^candor: judge add needs a model: give --model MODEL/);
  });

  it('every command that prints results prints JSON with --json, empty results included', async () => {
    for (const args of [['judge', 'list'], ['review', 'sample', '--seed', '7'], ['channels'], ['kb', 'facts']]) {
      const result = await candorInProcess([...args, '--json'], env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(() => JSON.parse(result.stdout), args.join(' ')).not.toThrow();
      expect(result.stdout.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('each subcommand gets its own arguments and options', () => {
  let env: Record<string, string>;
  const file = (name: string, rows: readonly object[]) => {
    const path = join(dir, name);
    writeFileSync(path, jsonl(rows));
    return path;
  };
  const run = async (args: string[], extra: Record<string, string> = {}) => candorInProcess(args, { ...env, ...extra });
  beforeAll(async () => {
    env = { CANDOR_DATA_DIR: await migratedStore(join(dir, 'own')), LOG_LEVEL: 'silent', CANDOR_KB: 'handbook' };
    expect((await run(['ingest', file('handbook.jsonl', HANDBOOK_FACTS)])).code).toBe(0);
  });

  it('kb retire and kb confirm take FACT_ID and --as', async () => {
    const retired = await run(['kb', 'retire', '1', '--as', 'ops', '--json']);
    expect(retired.code, retired.stderr).toBe(0);
    expect(JSON.parse(retired.stdout)).toEqual({ outcome: 'retired', factId: 1, kb: 'handbook', version: 2, by: 'cli:ops' });
    const missing = await run(['kb', 'retire', '99999']);
    expect([missing.code, missing.stderr]).toEqual([1, 'candor: There is no fact 99999.\n']);
    const stranger = await run(['kb', 'confirm', '2', '--as', 'eve', '--text', 'No.']);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('"eve" is not an expert of knowledge base "handbook"');
  });

  it('judge add reads --criteria @FILE with --model, and judge list shows it', async () => {
    const criteria = join(dir, 'criteria.txt');
    writeFileSync(criteria, 'Refuse when the facts do not say.');
    const added = await run([
      'judge',
      'add',
      '--name',
      'strict',
      '--task',
      'abstention',
      '--criteria',
      `@${criteria}`,
      '--model',
      'm1',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      name: 'strict',
      version: 1,
      task: 'abstention',
      model: 'm1',
      criteria: 'Refuse when the facts do not say.',
    });
    const listed = await run(['judge', 'list']);
    expect(listed.stdout).toMatch(/^strict@1 {2}abstention {2}m1 {2}prompt /);
  });

  it('review import takes FILE, --annotator and --task; review show and sample print text', async () => {
    const replies = file('replies.jsonl', [
      { id: 'R1', question: 'Is there a gym?', response: "I don't know.", label: 'correct' },
      { id: 'R2', question: 'How many days of leave?', response: '18 days.', label: 'correct' },
    ]);
    const imported = await run(['review', 'import', replies, '--annotator', 'pb', '--task', 'abstention']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(
      new RegExp(`^imported 2 replies from ${replies} \\(2 new, 0 already imported\\): 2 abstention labels by import:pb`),
    );
    const unknown = await run(['review', 'show', '99999', '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^candor: There is no review sample 99999\. List them with: candor review sample\n\{"error":\{"code":"not_found"/,
    );
    const sampled = await run(['review', 'sample', '--seed', '3']);
    expect(sampled.code, sampled.stderr).toBe(0);
    expect(sampled.stdout).toBe('nothing new to sample\n');
  });

  it('eval detect takes --responses; eval generate checks --per-fact before it looks for a model', async () => {
    const detected = await run([
      'eval',
      'detect',
      '--responses',
      file('detect.jsonl', [{ id: 'D1', question: 'Q?', response: "I don't know." }]),
    ]);
    expect(detected.code, detected.stderr).toBe(0);
    expect(detected.stdout).toMatch(/^D1\tabstains\t/);
    const perFact = await run(['eval', 'generate', '--kb', 'handbook', '--per-fact', '0']);
    expect([perFact.code, perFact.stderr]).toEqual([1, 'candor: --per-fact must be a whole number from 1 to 10 (got "0")\n']);
    const noModel = await run(['eval', 'generate', '--kb', 'handbook']);
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toMatch(/^candor: eval generate needs a model to write questions/);
  });

  it('eval follow-ups without --kb and --questions uses CANDOR_KB and the example pairs', async () => {
    const result = await run(['eval', 'follow-ups', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { summary } = JSON.parse(result.stdout) as { summary: { kb: { name: string }; questions: string; pairs: number } };
    expect(summary.kb.name).toBe('handbook');
    expect(summary.questions).toMatch(/examples\/questions\/follow-ups\.jsonl$/);
    expect(summary.pairs).toBe(39);
  });
});
