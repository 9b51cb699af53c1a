import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { main, runCli } from '../../src/cli.js';
import type { GroundingReport } from '../../src/eval/grounding/grounding-report.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { completion, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

const files = tempFiles({});
afterAll(() => files.cleanup());
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const LEAVE = HANDBOOK_FACTS[0].text; // "Full-time staff receive 18 days of annual leave in each calendar year."
const CONTEXT = [LEAVE, HANDBOOK_FACTS[3].text, HANDBOOK_FACTS[1].text];
const QUESTION = 'How many days of annual leave do full-time staff receive?';

const ROWS = [
  {
    id: 'ok',
    question: QUESTION,
    response: 'Full-time staff receive 18 days of annual leave in each calendar year.',
    context: CONTEXT,
    cited: [0],
    supported: true,
    domain: 'HB',
  },
  {
    id: 'number',
    question: QUESTION,
    response: 'Full-time staff receive 25 days of annual leave in each calendar year.',
    context: CONTEXT,
    cited: [0],
    supported: false,
  },
  {
    id: 'declines',
    question: QUESTION,
    response: 'The provided context does not mention how many days of leave staff receive.',
    context: CONTEXT,
    supported: false,
  },
  {
    id: 'uncited',
    question: QUESTION,
    response: 'Full-time staff receive 18 days of annual leave in each calendar year.',
    context: CONTEXT,
    supported: false,
  },
];

/** No model, whatever the developer's shell has set. */
function withoutModel(): void {
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'AZURE_OPENAI_ENDPOINT', 'CANDOR_CONFIG', 'CANDOR_LLM_ENTAILMENT'])
    vi.stubEnv(name, '');
}

/** `candor …` in-process: the exit code and what it wrote. */
async function candor(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    return { code: await main(argv), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('candor eval grounding (no model: the lexical check alone)', () => {
  it('passes the supported answer, flags the wrong number and the uncited answer, sets the declining reply aside', async () => {
    withoutModel();
    const path = files.write('responses.jsonl', jsonl(ROWS));
    const markdown = files.path('report.md');
    const { code, stdout } = await candor(['eval', 'grounding', '--responses', path, '--json', '--markdown', markdown]);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(stdout) as GroundingReport;
    expect(report.summary).toMatchObject({
      n: 3,
      rows: 4,
      declined: 1,
      unsupportedFlagged: 1,
      supportedPassed: 1,
      auc: 1,
      confusion: { supported: { passed: 1, flagged: 0 }, unsupported: { passed: 0, flagged: 2 } },
      checks: ['lexical'],
    });
    expect(Object.keys(report.checks)).toEqual(['lexical']);
    expect(report.checks.lexical.threshold).toBeGreaterThan(0);
    const byId = Object.fromEntries(report.items.map((i) => [i.id, i]));
    expect(byId.ok).toMatchObject({ declined: false, supported: true, pass: { lexical: true, combined: true } });
    expect(byId.ok!.support).toBeGreaterThanOrEqual(report.checks.lexical.threshold);
    expect(byId.number).toMatchObject({ declined: false, pass: { lexical: false, combined: false } });
    expect(byId.number!.support).toBeLessThan(report.checks.lexical.threshold);
    expect(JSON.stringify(byId.number)).toContain('25');
    expect(byId.uncited).toMatchObject({ pass: { lexical: false }, support: 0, detail: 'the answer cites no fact' });
    expect(byId.declines).toMatchObject({ declined: true, pass: null, support: null });
    expect(readFileSync(markdown, 'utf8')).toMatch(/\| lexical \(support ≥ [\d.]+\) \| 100\.0% .*\| 100\.0% /);
  });

  it('prints a few lines and the confusion matrix for people', async () => {
    withoutModel();
    const path = files.write('human.jsonl', jsonl(ROWS));
    const { code, stdout } = await candor(['eval', 'grounding', '--responses', path]);
    expect(code).toBe(0);
    expect(stdout).toContain('4 responses: 1 declined (rule:abstention@1; left out), 3 scored (1 supported, 2 unsupported, 0 unlabelled)');
    expect(stdout).toMatch(/combined: unsupported flagged 100\.0%/);
    expect(stdout).toMatch(/supported\s+1\s+0\n\s+unsupported\s+0\s+2/);
  });

  it('names the malformed line and exits 1; without --responses it is a usage error (2)', async () => {
    withoutModel();
    const path = files.write(
      'bad.jsonl',
      `${JSON.stringify(ROWS[0])}\n{"id": "x", "question": \n${JSON.stringify({ ...ROWS[1], cited: [-1] })}\n`,
    );
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      runCli(['eval', 'grounding', '--responses', path]);
      await vi.waitFor(() => expect(process.exitCode).toBe(1));
    } finally {
      process.exitCode = undefined;
      vi.restoreAllMocks();
    }
    expect(stderr).toContain('line 2: not valid JSON');
    expect(stderr).toMatch(/line 3: cited\.0 must be 0-based/);
    expect((await candor(['eval', 'grounding'])).code).toBe(2);
  });
});

describe('candor eval grounding with a model and CANDOR_LLM_ENTAILMENT=true', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake?.close());

  it('adds the entailment check; combined flags an answer either check fails', async () => {
    withoutModel();
    vi.stubEnv('OPENAI_BASE_URL', fake.baseUrl);
    vi.stubEnv('CANDOR_CHAT_MODEL', 'writer');
    vi.stubEnv('CANDOR_JUDGE_MODEL', 'checker');
    vi.stubEnv('CANDOR_LLM_ENTAILMENT', 'true');
    vi.stubEnv('CANDOR_LLM_MAX_RETRIES', '0');
    // The fake judge finds an answer entailed when a fact it was shown says it word for word; one call per answer that does not decline.
    const judge = (call: { body: Record<string, unknown> }) => {
      const user = (call.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;
      const [facts, answer] = user.split('\n\nAnswer:\n') as [string, string];
      return completion(JSON.stringify({ entailed: facts.includes(answer.trim()), reasoning: 'checked' }));
    };
    fake.script(judge, judge, judge);
    const path = files.write('entail.jsonl', jsonl(ROWS));
    const { code, stdout } = await candor(['eval', 'grounding', '--responses', path, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as GroundingReport;
    expect(fake.chatCalls().map((c) => c.body.model)).toEqual(['checker', 'checker', 'checker']);
    expect(report.summary.checks).toEqual(['lexical', 'entailment']);
    expect(report.checks.entailment).toMatchObject({ n: 3, unsupportedFlagged: 1, supportedPassed: 1, auc: 1, modelErrors: 0 });
    const byId = Object.fromEntries(report.items.map((i) => [i.id, i]));
    expect(byId.ok).toMatchObject({ pass: { lexical: true, entailment: true, combined: true } });
    expect(byId.number).toMatchObject({ pass: { lexical: false, entailment: false, combined: false } });
    // cites nothing: the judge sees no fact
    expect(byId.uncited).toMatchObject({ pass: { lexical: false, entailment: false, combined: false } });
  });
});
