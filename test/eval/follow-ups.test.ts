import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { readFollowUpPairs } from '../../src/eval/follow-ups/follow-up-pairs.js';
import { evalFollowUps } from '../../src/eval/follow-ups/follow-ups-command.js';
import { judgeQuestion } from '../../src/eval/follow-ups/score-follow-ups.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { completion, reply, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

const PAIRS = [
  {
    previous: 'How many days of annual leave do full-time staff receive?',
    followUp: 'and how many can be carried forward?',
    standalone: 'How many days of unused annual leave can be carried forward?',
    kind: 'elliptical',
  },
  {
    previous: 'How much do staff parking permits cost?',
    followUp: 'When are they renewed?',
    standalone: 'When are staff parking permits renewed?',
    kind: 'pronoun',
  },
  {
    previous: 'How much do staff parking permits cost?',
    followUp: 'When does the office canteen serve breakfast?',
    standalone: 'When does the office canteen serve breakfast?',
    kind: 'topic_shift',
  },
  {
    previous: 'How many days of annual leave do full-time staff receive?',
    followUp: 'Is a medical certificate required for sick leave longer than two days?',
    standalone: 'Is a medical certificate required for sick leave longer than two days?',
    kind: 'standalone',
  },
];

interface Report {
  summary: { pairs: number; kinds: Record<string, number>; referenceAnswered: number; rule: string; model: unknown; right: string };
  methods: Record<string, { n: number; right: number; gateRight: number; wordsRight: number; byKind: Record<string, { n: number }> }>;
  items: {
    kind: string;
    reference: { decision: string; topFact: string | null };
    methods: Record<string, { question: string; gateRight: boolean; wordsRight: boolean; method?: string; rewriteFailed?: boolean }>;
  }[];
}

async function run(app: Candor, questions: string): Promise<{ code: number; report: Report; progress: string[] }> {
  const out: string[] = [];
  const progress: string[] = [];
  const code = await evalFollowUps(
    app,
    { kb: 'handbook', questions, json: true },
    (t) => out.push(t),
    (m) => progress.push(m),
  );
  expect(out).toHaveLength(1);
  return { code, report: JSON.parse(out[0]!) as Report, progress };
}

describe('candor eval follow-ups --json (in process, the handbook fixture)', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS), 'pairs.jsonl': jsonl(PAIRS) });
  let app: Candor;

  beforeAll(async () => {
    app = await buildCandor(testConfig(), { telemetry: false });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    files.cleanup();
  });

  it('prints one object: summary, per-method right counts (per kind) and one item per pair', async () => {
    const { code, report, progress } = await run(app, files.path('pairs.jsonl'));
    expect(code).toBe(0);
    expect(Object.keys(report)).toEqual(['summary', 'methods', 'items']);
    expect(report.summary).toMatchObject({
      pairs: 4,
      kinds: { elliptical: 1, pronoun: 1, standalone: 1, topic_shift: 1 },
      rule: 'rule:follow-up@1',
      model: null,
    });
    expect(Object.keys(report.methods)).toEqual(['as_typed', 'rule', 'rule_without_vocabulary']);
    expect(report.methods.as_typed!.byKind.elliptical).toMatchObject({ n: 1 });
    expect(report.items).toHaveLength(4);
    expect(progress.at(-1)).toBe('follow-ups: 4/4 pairs');

    const [elliptical, pronoun, shift, standalone] = report.items;
    // The rule names the parking permits "they" refers to; as typed, the question lacks the hand-written one's words.
    expect(pronoun!.methods.rule).toMatchObject({
      question: 'When are they renewed (staff parking permits cost)?',
      method: 'borrowed',
      gateRight: true,
    });
    expect(pronoun!.methods.as_typed!.wordsRight).toBe(false);
    expect(elliptical!.methods.rule!.method).toBe('borrowed');
    // Topic shifts and standalone follow-ups are left as asked, so they are as right as typed.
    for (const item of [shift!, standalone!]) {
      expect(item.methods.rule).toMatchObject({ method: 'as_asked', gateRight: true, wordsRight: true });
      expect(item.methods.as_typed).toMatchObject({ gateRight: true, wordsRight: true });
    }
    const counted = report.items.filter((i) => i.methods.rule!.gateRight && i.methods.rule!.wordsRight).length;
    expect(report.methods.rule!.right).toBe(counted);
  });

  it('refuses a file with a bad line, naming it', async () => {
    const bad = files.write('bad.jsonl', `${JSON.stringify(PAIRS[0])}\n${JSON.stringify({ ...PAIRS[1], kind: 'other' })}\n`);
    expect(() => readFollowUpPairs(bad)).toThrow(/line 2: kind/);
  });
});

describe('candor eval follow-ups with a model (fake OpenAI server)', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS), 'pairs.jsonl': jsonl(PAIRS) });
  let fake: FakeOpenAi;
  let app: Candor;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    // Rewrites come from the hand-written questions; answers are refused (the answer prompt's job is not measured here).
    fake.server.use((call) => {
      if (call.path !== '/v1/chat/completions') return undefined;
      const [system, user] = (call.body.messages as { content: string }[]).map((m) => m.content);
      if (!system!.startsWith('You rewrite a follow-up')) return reply(false, '', [], 'Not stated.');
      const pair = PAIRS.find((p) => user!.endsWith(`Follow-up:\n${p.followUp}`));
      return pair ? completion(JSON.stringify({ question: pair.standalone })) : { status: 500, body: { error: { message: 'no pair' } } };
    });
    app = await buildCandor(testConfig({ OPENAI_BASE_URL: fake.baseUrl, CANDOR_LLM_MAX_RETRIES: '0' }), { telemetry: false });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    files.cleanup();
  });

  it('adds the model method: one rewrite per pair, its prompt in the summary', async () => {
    const { report } = await run(app, files.path('pairs.jsonl'));
    expect(report.summary.model).toEqual({ name: expect.any(String), prompt: 'rewrite-follow-up@2026-11-1' });
    expect(Object.keys(report.methods)).toEqual(['as_typed', 'rule', 'rule_without_vocabulary', 'model']);
    expect(report.items.map((i) => i.methods.model!.method)).toEqual(['rewritten', 'rewritten', 'as_asked', 'as_asked']);
    expect(report.methods.model).toMatchObject({ n: 4, right: 4, gateRight: 4, wordsRight: 4 });
    const rewrites = fake.chatCalls().filter((c) => (c.body.messages as { content: string }[])[0]!.content.startsWith('You rewrite'));
    expect(rewrites).toHaveLength(4);
  });
});

describe('judgeQuestion', () => {
  it('is right by the gate only with the same decision and, for answers, the same leading fact', () => {
    const ref = { decision: 'answer', topFact: 'HB-4' } as const;
    expect(
      judgeQuestion('parking permits renewed', { decision: 'answer', topFact: 'HB-4' }, 'When are parking permits renewed?', ref),
    ).toMatchObject({
      gateRight: true,
      recall: 1,
      precision: 1,
      wordsRight: true,
    });
    expect(judgeQuestion('parking', { decision: 'answer', topFact: 'HB-1' }, 'When are parking permits renewed?', ref)).toMatchObject({
      gateRight: false,
      wordsRight: false,
    });
    const refused = { decision: 'abstain', topFact: null } as const;
    expect(judgeQuestion('x', { decision: 'abstain', topFact: null }, 'y', refused).gateRight).toBe(true);
    expect(judgeQuestion('x', { decision: 'error', topFact: null }, 'y', { decision: 'error', topFact: null }).gateRight).toBe(false);
  });
});
