import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess, type CliResult as Run } from './support/cli-in-process.js';
import { tempFiles } from './support/compose.js';
import { migratedStore } from './support/migrated-store.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CPF_FACTS = 'examples/policybench/cpf-facts.jsonl';
const CPF_QUESTIONS = 'examples/policybench/cpf-questions.jsonl';

/**
 * `candor …` in this process, through the entry point the installed bin calls: the exit code and
 * what it printed. Output, exit codes and stored results are what these tests are about; the
 * packaged bin, a process holding the data folder, and signals have their own (spawning) tests
 * in test/package, test/store/data-dir-lock.test.ts and test/serve.
 */
function candor(args: readonly string[], env: Record<string, string>): Promise<Run> {
  return candorInProcess(args, { LOG_LEVEL: 'warn', ...env });
}

/** `--json` prints exactly one JSON object on stdout. */
function onlyJson(run: Run): Record<string, unknown> {
  const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
  expect(lines, `stdout was: ${run.stdout}\nstderr was: ${run.stderr}`).toHaveLength(1);
  const value = JSON.parse(lines[0] as string) as unknown;
  expect(value).toEqual(expect.any(Object));
  expect(Array.isArray(value)).toBe(false);
  return value as Record<string, unknown>;
}

function expectDecisionContract(body: Record<string, unknown>): void {
  // The same object POST /api/ask returns.
  expect(Object.keys(body).sort()).toEqual(
    [
      'answer',
      'answerability',
      'caveat',
      'confidence',
      'decision',
      'evidence',
      'interactionId',
      'kb',
      'latencyMs',
      'nearbyTopics',
      'reasons',
      'refusal',
      'traceId',
    ].sort(),
  );
  expect(['answer', 'abstain']).toContain(body.decision);
  if (body.decision === 'answer') expect([body.answer, body.refusal]).toEqual([expect.any(String), null]);
  else expect([body.answer, body.refusal]).toEqual([null, expect.any(String)]);
  expect(body.interactionId).toEqual(expect.any(Number));
  expect(body.answerability).toMatchObject({ score: expect.any(Number), threshold: expect.any(Number), thresholdSource: 'model' });
  expect(body.kb).toEqual({ name: 'cpf', version: 1 });
  expect(body.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(body.latencyMs).toEqual(expect.any(Number));
  const reasons = body.reasons as Record<string, unknown>[];
  expect(reasons.length).toBeGreaterThan(0);
  for (const reason of reasons) {
    expect(reason).toMatchObject({ layer: expect.any(String), detail: expect.any(String) });
    expect(reason.code === null || typeof reason.code === 'string').toBe(true);
  }
  for (const fact of body.evidence as Record<string, unknown>[]) {
    expect(fact).toEqual({
      factId: expect.stringMatching(/^CPF_\d+$/),
      text: expect.any(String),
      source: expect.any(String),
      score: expect.any(Number),
      // A .jsonl fact has no document title or section; its line's `url` is the link people open.
      title: null,
      section: null,
      url: expect.stringMatching(/^https:\/\/www\.cpf\.gov\.sg\//),
    });
  }
  expect(['high', 'medium', 'low']).toContain(body.confidence);
  if (body.decision === 'answer') expect(body.caveat === null).toBe(body.confidence === 'high');
  else expect([body.confidence, body.caveat]).toEqual(['low', null]);
}

describe('candor CLI', () => {
  const dirs = tempFiles({}, 'candor-cli-');
  const env = { CANDOR_DATA_DIR: dirs.path('data') };
  // Empty, migrated stores: what a first command leaves, without paying for initdb and every migration per folder.
  beforeAll(async () => {
    await migratedStore(dirs.path('data'));
    await migratedStore(dirs.path('review-data'));
  });
  afterAll(() => dirs.cleanup());

  it('ingest --json prints one JSON summary', async () => {
    const run = await candor(['ingest', CPF_FACTS, '--kb', 'cpf', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(onlyJson(run)).toMatchObject({
      kb: { name: 'cpf', version: 1 },
      documents: 1,
      added: 1,
      changed: 0,
      unchanged: 0,
      facts: readFileSync(`${ROOT}/${CPF_FACTS}`, 'utf8').trim().split('\n').length,
      retiredFacts: 0,
      skipped: [],
    });
  });

  it('ask --json answers with exactly one JSON object and exit code 0', async () => {
    const run = await candor(
      ['ask', 'Can the minimum income criterion be waived for workers who want to work more but are unable to?', '--kb', 'cpf', '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const body = onlyJson(run);
    expectDecisionContract(body);
    expect(body.decision).toBe('answer');
    expect((body.evidence as { factId: string }[])[0]?.factId).toBe('CPF_22');
  });

  it('ask --json abstains with exit code 0 too', async () => {
    const run = await candor(['ask', 'Who won the 1998 World Cup?', '--kb', 'cpf', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const body = onlyJson(run);
    expectDecisionContract(body);
    expect(body.decision).toBe('abstain');
    expect(body.evidence).toEqual([]);
    expect((body.reasons as { code: string }[])[0]?.code).toEqual(expect.any(String));
  });

  it('ask without --json prints the answer as text, then its sources', async () => {
    const refused = await candor(['ask', 'Who won the 1998 World Cup?', '--kb', 'cpf'], env);
    const answered = await candor(
      ['ask', 'Can the minimum income criterion be waived for workers who want to work more but are unable to?', '--kb', 'cpf'],
      env,
    );
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toMatch(/^I don't know\. /);
    expect(answered.code, answered.stderr).toBe(0);
    // The PolicyBench facts carry their FAQ page's address: the source is a link.
    expect(answered.stdout).toMatch(/\n\nSources:\n {2}1\. PolicyBench CPF_111 CPF_22 — https:\/\/www\.cpf\.gov\.sg\/\S+\n/);
    expect(answered.stdout).not.toContain('(source:');
  });

  it('an unknown knowledge base exits non-zero and says how to ingest one', async () => {
    const run = await candor(['ask', 'What is the Basic Retirement Sum?', '--kb', 'nosuch', '--json'], env);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('There is no knowledge base named "nosuch"');
    expect(run.stderr).toContain('candor ingest PATH --kb nosuch');
  });

  it('eval loo --json prints the summary and one item per question', async () => {
    const ids = ['CPF_22', 'CPF_26', 'CPF_27', 'CPF_28', 'CPF_3'];
    const lines = readFileSync(`${ROOT}/${CPF_QUESTIONS}`, 'utf8')
      .split('\n')
      .filter((line) => ids.includes((JSON.parse(line || '{}') as { id?: string }).id ?? ''));
    expect(lines).toHaveLength(5);
    const questions = dirs.write('questions.jsonl', `${lines.join('\n')}\n`);

    const markdown = dirs.path('loo.md');
    const run = await candor(['eval', 'loo', '--kb', 'cpf', '--questions', questions, '--json', '--markdown', markdown], env);
    expect(run.code, run.stderr).toBe(0);
    const report = onlyJson(run) as {
      summary: {
        n: number;
        fullAnswered: number;
        fullAnsweredWithFact: number;
        looAbstained: number;
        fullRefusedBy: Record<string, number>;
        looRefusedBy: Record<string, number>;
        hardGateRefusals: number;
      };
      items: { id: string; full: { decision: string; evidenceFactIds: string[] }; loo: { decision: string; evidenceFactIds: string[] } }[];
    };
    // Extended, never renamed: the category summary is a new key beside the old ones.
    expect(Object.keys(report).sort()).toEqual(['categories', 'items', 'summary']);
    expect((report as unknown as { categories: unknown }).categories).toEqual([
      {
        category: 'fact',
        n: 5,
        abstained: report.items.filter((i) => i.loo.decision === 'abstain').length,
        abstentionRate: report.summary.looAbstained,
      },
    ]);
    const page = readFileSync(markdown, 'utf8');
    expect(page).toMatch(/^# Leave-one-out evaluation: knowledge base "cpf"/);
    expect(page).toContain(`| abstained under leave-one-out | ${(report.summary.looAbstained * 100).toFixed(1)}% |`);
    expect(page).toMatch(/\| fact \| 5 \| \d \| [\d.]+% \|/);
    expect(report.items.map((item) => item.id).sort()).toEqual([...ids].sort());
    const { summary, items } = report;
    expect(summary.n).toBe(5);
    const share = (count: number) => count / 5;
    expect(summary.fullAnswered).toBe(share(items.filter((i) => i.full.decision === 'answer').length));
    expect(summary.fullAnsweredWithFact).toBe(
      share(items.filter((i) => i.full.decision === 'answer' && i.full.evidenceFactIds.includes(i.id)).length),
    );
    expect(summary.looAbstained).toBe(share(items.filter((i) => i.loo.decision === 'abstain').length));
    const looRefusals = Object.values(summary.looRefusedBy).reduce((a, b) => a + b, 0);
    expect(looRefusals).toBe(items.filter((i) => i.loo.decision === 'abstain').length);
    // In extractive mode every refusal is a hard-gate refusal: each would be a model call avoided.
    const fullRefusals = Object.values(summary.fullRefusedBy).reduce((a, b) => a + b, 0);
    expect(summary.hardGateRefusals).toBe(fullRefusals + looRefusals);
    // With its fact left out, an item never cites that fact.
    for (const item of items) expect(item.loo.evidenceFactIds).not.toContain(item.id);
    // The clearest case: answered from its own fact, refused without it.
    const cpf22 = items.find((i) => i.id === 'CPF_22');
    expect(cpf22?.full).toMatchObject({ decision: 'answer', evidenceFactIds: ['CPF_22'] });
    expect(cpf22?.loo.decision).toBe('abstain');
    // Leave-one-out never changes the stored KB: it is still at version 1 and re-ingesting is a no-op.
    const again = await candor(['ingest', CPF_FACTS, '--kb', 'cpf', '--json'], env);
    expect(onlyJson(again)).toMatchObject({ kb: { name: 'cpf', version: 1 }, unchanged: 1, facts: 0 });
  });

  describe('refuses bad input before touching the store', () => {
    it('a bad setting exits non-zero and names the variable on stderr', async () => {
      // Run one after another (candorInProcess queues them): the process environment is shared.
      const [port, url] = await Promise.all([
        candor(['ask', 'What is the Basic Retirement Sum?', '--kb', 'cpf', '--json'], { ...env, PORT: 'abc' }),
        candor(['ask', 'What is the Basic Retirement Sum?', '--kb', 'cpf'], { ...env, DATABASE_URL: 'mysql://root:pa55word@db/x' }),
      ]);
      expect(port.code).not.toBe(0);
      expect(port.stdout).toBe('');
      expect(port.stderr).toMatch(/PORT: .*"abc"/);
      expect(port.stderr).not.toMatch(/^\s+at /m); // a message, not a stack trace
      expect(url.code).not.toBe(0);
      expect(url.stderr).toContain('DATABASE_URL');
      expect(url.stderr).not.toContain('pa55word');
    });

    it('ask "" exits non-zero with a clear message', async () => {
      const [empty, blank] = await Promise.all([
        candor(['ask', '', '--kb', 'cpf', '--json'], env),
        candor(['ask', '   ', '--kb', 'cpf'], env),
      ]);
      for (const run of [empty, blank]) {
        expect(run.code).not.toBe(0);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain('ask needs a QUESTION');
      }
    });
  });

  it('review sample, label from a terminal, and report agreement --json print what is stored', async () => {
    const env = { CANDOR_DATA_DIR: dirs.path('review-data'), CANDOR_REVIEWERS: 'cli:alice,cli:bob' };
    expect((await candor(['ingest', CPF_FACTS, '--kb', 'default'], env)).code).toBe(0);
    await candor(['ask', 'What does ADR-0050 say about CPF?'], env);
    const sampled = onlyJson(
      await candor(['review', 'sample', '--seed', '7', '--json'], { ...env, CANDOR_REVIEW_ABSTAINED_RATE: '1' }),
    ) as { samples: { sampleId: number; stratum: string }[] };
    expect(sampled.samples).toEqual([expect.objectContaining({ stratum: 'abstain|cli|unknown_entity' })]);
    const id = String(sampled.samples[0]!.sampleId);

    const shown = await candor(['review', 'show', id], env);
    expect(shown.stdout).toContain('abstention — Was answering or refusing the right call?');
    for (const [who, value] of [
      ['alice', 'correct'],
      ['bob', ':white_check_mark:'],
    ]) {
      const labelled = onlyJson(await candor(['review', 'label', id, 'abstention', value as string, '--as', who as string, '--json'], env));
      expect(labelled).toMatchObject({ outcome: 'recorded', annotator: `cli:${who}`, value: 'correct', via: 'terminal' });
    }
    const stranger = await candor(['review', 'label', id, 'abstention', 'correct', '--as', 'mallory'], env);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('"mallory" is not a configured reviewer');
    // A Slack reviewer's id typed as a terminal name is not that reviewer: the terminal needs its own cli: entry.
    const impostor = await candor(['review', 'label', id, 'abstention', 'correct', '--as', 'slack:UALICE'], {
      ...env,
      CANDOR_REVIEWERS: 'slack:UALICE',
    });
    expect(impostor.code).toBe(1);
    expect(impostor.stderr).toContain('add cli:slack:UALICE');
    const bad = await candor(['review', 'label', id, 'abstention', 'maybe', '--as', 'alice'], env);
    expect(bad.stderr).toContain('Allowed — abstention: correct / incorrect');

    const made = onlyJson(await candor(['report', 'agreement', '--run', '--json'], env)) as {
      runKey: string;
      tasks: { task: string; items: number; humanHuman: { percentAgreement: number } }[];
    };
    expect(made.tasks).toEqual([
      expect.objectContaining({ task: 'abstention', items: 1, humanHuman: expect.objectContaining({ percentAgreement: 1 }) }),
    ]);
    const stored = onlyJson(await candor(['report', 'agreement', '--json', '--task', 'abstention'], env));
    expect(stored).toEqual(made);
    // --remove takes a label back (the stored report keeps what was labelled when it ran).
    const removed = onlyJson(await candor(['review', 'label', id, 'abstention', 'correct', '--as', 'bob', '--remove', '--json'], env));
    expect(removed).toMatchObject({ outcome: 'removed', annotator: 'cli:bob', value: 'correct' });
  }, 120_000);
});
