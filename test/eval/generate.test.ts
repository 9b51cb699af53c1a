import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { evalGenerate, type QuestionLine } from '../../src/eval/generate/generate-command.js';
import { readLooQuestions, runLeaveOneOut } from '../../src/eval/leave-one-out.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import type { RecordedCall } from '../channels/fake-http.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { completion, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

// Three redundant facts join the handbook; the model's questions for them are planted near-duplicates.
const FACTS = [
  ...HANDBOOK_FACTS,
  { id: 'HB-9', text: 'A staff parking permit is $45 a month.', source: 'handbook#parking-2' },
  { id: 'HB-10', text: 'Employees receive eighteen vacation days.', source: 'handbook#leave-2' },
  { id: 'HB-11', text: 'Lunch service in the canteen ends at 2.30 pm.', source: 'handbook#canteen-2' },
];
const QUESTION: Record<string, string> = {
  'HB-1': 'How many days of annual leave do full-time staff get each year?',
  'HB-2': 'How many unused leave days can be carried into the next year?',
  'HB-3': 'When do I need a medical certificate for sick leave?',
  'HB-4': 'How much does a staff parking permit cost per month?',
  'HB-5': 'What time does the canteen stop serving lunch?',
  'HB-6': 'Where do I return my laptop when I leave the company?',
  'HB-7': 'How do I submit an expense claim?',
  'HB-8': 'Where is the fire assembly point?',
  'HB-9': 'What is the monthly cost of a staff parking permit?', // keyword near-duplicate of HB-4's
  'HB-10': 'How many vacation days do employees receive?', // same meaning as HB-1's, other words
  'HB-11': 'When does the canteen stop lunch service?', // a rephrasing of HB-5's
};
const DONT_KNOW: Record<string, string[]> = {
  'uncitable-unrelated': ['What is the capital of Peru?', 'Who won the 1998 football world cup?'],
  'uncitable-related': ['Can staff bring pets to the office?', 'Is there a gym for employees in the building?'],
  unknowable: ['Will the office move to a new building in 2031?', 'What will my manager think of my next appraisal?'],
  nonsensical: ['Which colour is the expense portal on Tuesdays?', 'How tall is the annual leave policy?'],
};

/** The fake model: answers the prompt it is given (a fact, or a category), as a chat completion. */
function answer(call: RecordedCall) {
  const messages = call.body.messages as { role: string; content: string }[];
  const user = messages[1]!.content;
  const fact = /^Fact: (.*)$/m.exec(user)?.[1];
  if (fact) {
    const id = FACTS.find((f) => f.text === fact)!.id;
    return completion(JSON.stringify({ questions: [{ question: QUESTION[id], answer: fact }] }));
  }
  const category = /^Category: (\S+)$/m.exec(user)![1]!;
  return completion(JSON.stringify({ questions: DONT_KNOW[category] }));
}

describe('candor eval generate', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(FACTS) });
  let fake: FakeOpenAi;
  let plain: Candor;
  let withEmbeddings: Candor;
  let noModel: Candor;
  let failOn: string | null = null;
  const said: string[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.server.use((call) => {
      if (call.path !== '/v1/chat/completions') return undefined;
      const user = (call.body.messages as { content: string }[])[1]!.content;
      if (failOn && user.includes(failOn)) return { status: 500, body: { error: { message: 'model backend down', type: 'server_error' } } };
      return answer(call);
    });
    const env = { OPENAI_BASE_URL: fake.baseUrl, CANDOR_LLM_MAX_RETRIES: '0' };
    plain = await buildCandor(testConfig(env), { telemetry: false });
    withEmbeddings = await buildCandor(testConfig({ ...env, CANDOR_EMBEDDING_MODEL: 'embed-test' }), { telemetry: false });
    noModel = await buildCandor(testConfig(), { telemetry: false });
    for (const app of [plain, withEmbeddings, noModel]) await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  }, 60_000);
  afterAll(async () => {
    await plain?.close();
    await withEmbeddings?.close();
    await noModel?.close();
    await fake?.close();
    files.cleanup();
  });

  const run = (app: Candor, out: string, extra: Record<string, string> = {}) =>
    evalGenerate(
      app,
      { kb: 'handbook', out: files.path(out), json: true, ...extra },
      (t) => said.push(t),
      () => undefined,
    );
  const lines = (out: string) =>
    readFileSync(files.path(out), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QuestionLine);

  it('writes valid JSONL in the eval loo format, with expected answers and tagged don’t-know categories', async () => {
    expect(await run(plain, 'all.jsonl')).toBe(0);
    const out = lines('all.jsonl');
    const facts = out.filter((l) => l.category === 'fact');
    expect(facts[0]).toEqual({
      id: 'HB-1#q1',
      question: QUESTION['HB-1'],
      factId: 'HB-1',
      expected: HANDBOOK_FACTS[0].text,
      category: 'fact',
    });
    const categories = out.filter((l) => l.category !== 'fact');
    expect(new Set(categories.map((l) => l.category))).toEqual(new Set(Object.keys(DONT_KNOW)));
    for (const l of categories) expect(l).toMatchObject({ answerable: false, expected: null, question: expect.any(String) });
    expect(categories.map((l) => l.id)).toContain('unknowable#q2');
    expect(new Set(out.map((l) => l.id)).size).toBe(out.length);
    // The fact-question lines are what eval loo reads.
    files.write('facts-only.jsonl', jsonl(facts));
    expect(readLooQuestions(files.path('facts-only.jsonl'))).toHaveLength(facts.length);
  });

  it('without embeddings: the keyword filter removes the reworded copy, the lexical filter the rephrasing; distinct questions stay', async () => {
    const out = lines('all.jsonl').filter((l) => l.category === 'fact');
    expect(out.map((l) => l.factId)).toEqual(['HB-1', 'HB-2', 'HB-3', 'HB-4', 'HB-5', 'HB-6', 'HB-7', 'HB-8', 'HB-10']);
    const summary = JSON.parse(said.at(-1)!) as {
      removed: { keyword: number; semantic: number; semanticFilter: string };
      removedQuestions: { question: string; by: string; duplicateOf: string }[];
    };
    expect(summary.removed).toMatchObject({ keyword: 1, semantic: 1, semanticFilter: 'lexical' });
    expect(summary.removedQuestions).toEqual([
      expect.objectContaining({ question: QUESTION['HB-9'], by: 'keyword', duplicateOf: QUESTION['HB-4'] }),
      expect.objectContaining({ question: QUESTION['HB-11'], by: 'semantic', duplicateOf: QUESTION['HB-5'] }),
    ]);
  });

  it('with embeddings: the semantic filter also removes a question that means the same in other words', async () => {
    expect(await run(withEmbeddings, 'embedded.jsonl', { categories: 'none' })).toBe(0);
    expect(lines('embedded.jsonl').map((l) => l.factId)).toEqual(['HB-1', 'HB-2', 'HB-3', 'HB-4', 'HB-5', 'HB-6', 'HB-7', 'HB-8']);
    const summary = JSON.parse(said.at(-1)!) as {
      removed: { semanticFilter: string };
      removedQuestions: { question: string; by: string }[];
    };
    expect(summary.removed.semanticFilter).toBe('embeddings');
    expect(summary.removedQuestions).toContainEqual(
      expect.objectContaining({ question: QUESTION['HB-10'], by: 'semantic', duplicateOf: QUESTION['HB-1'] }),
    );
  });

  it('a run that fails part-way keeps what it generated, and the next run asks only for the rest', async () => {
    failOn = `Fact: ${FACTS[4]!.text}`; // HB-5
    await expect(run(plain, 'resume.jsonl', { categories: 'unknowable' })).rejects.toThrow(
      /1 of 12 facts and categories could not be generated:\n {2}HB-5: the model endpoint answered 500[\s\S]*run the same command again to resume/,
    );
    expect(existsSync(files.path('resume.jsonl'))).toBe(false);
    expect(readFileSync(files.path('resume.jsonl.cache.jsonl'), 'utf8').trim().split('\n')).toHaveLength(11);
    failOn = null;
    const before = fake.chatCalls().length;
    expect(await run(plain, 'resume.jsonl', { categories: 'unknowable' })).toBe(0);
    const asked = fake.chatCalls().slice(before);
    expect(asked).toHaveLength(1);
    expect((asked[0]!.body.messages as { content: string }[])[1]!.content).toContain(FACTS[4]!.text);
    expect(lines('resume.jsonl').map((l) => l.id)).toContain('HB-5#q1');
    expect(JSON.parse(said.at(-1)!)).toMatchObject({ resumed: 11, generatedNow: 1 });
  });

  it('the generated questions run through eval loo: each asked with and without its fact', async () => {
    // Extractive mode (no model), as a KB owner without a model would run it.
    const report = await runLeaveOneOut(noModel, 'handbook', readLooQuestions(files.path('facts-only.jsonl')));
    expect(report.summary.n).toBe(9);
    expect(report.items.map((i) => i.id)).toContain('HB-7#q1');
  });

  it('says a model is needed when none is configured, and checks its flags', async () => {
    await expect(
      evalGenerate(
        noModel,
        { kb: 'handbook', json: true },
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow(/needs a model to write questions: set OPENAI_API_KEY/);
    await expect(run(plain, 'x.jsonl', { categories: 'unrelated' })).rejects.toThrow(
      /--categories: unknown unrelated; choose from uncitable-unrelated/,
    );
    await expect(run(plain, 'x.jsonl', { perFact: '0' })).rejects.toThrow(/--per-fact must be a whole number from 1 to 10/);
  });
});
