import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { extractFacts } from '../../src/llm/extract-facts.js';
import { facts, knowledgeBases } from '../../src/store/schema.js';
import { tempFiles, testConfig } from '../support/compose.js';
import { completion, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

const HANDBOOK = `# Handbook

## Annual leave
Full-time staff get 18 days of leave a year. Up to 5 of them can be carried forward.

## Parking
Permits cost $45 a month.
`;

describe('LLM fact extraction at ingestion', () => {
  const files = tempFiles({ 'handbook.md': HANDBOOK });
  let fake: FakeOpenAi;
  let app: Candor;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    app = await buildCandor(testConfig({ OPENAI_BASE_URL: fake.baseUrl, CANDOR_FACT_EXTRACTION: 'llm', CANDOR_LLM_MAX_RETRIES: '0' }), {
      telemetry: false,
    });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    files.cleanup();
  });

  const stored = (kb: string) =>
    app.store.db
      .select({ text: facts.text, heading: facts.heading, source: facts.source, position: facts.position })
      .from(facts)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
      .where(and(eq(knowledgeBases.name, kb), isNull(facts.retiredInVersion)))
      .orderBy(facts.id);

  it('stores the facts the model extracts per passage, each with its heading and source; a failed passage keeps its sentences', async () => {
    fake.script(
      completion(
        JSON.stringify({
          facts: ['Full-time staff get 18 days of annual leave a year.', 'Full-time staff can carry up to 5 days of annual leave forward.'],
        }),
      ),
      { status: 500, body: { error: { message: 'overloaded', type: 'server_error' } } },
    );
    const llm = app.llm!;
    const summary = await ingestPaths(app.store.db, [files.path('handbook.md')], { kb: 'x', extractFacts: (p) => extractFacts(llm, p) });
    const rows = await stored('x');
    expect(rows).toEqual([
      {
        text: 'Full-time staff get 18 days of annual leave a year.',
        heading: 'Handbook > Annual leave',
        source: 'handbook.md › Handbook > Annual leave',
        position: 0,
      },
      {
        text: 'Full-time staff can carry up to 5 days of annual leave forward.',
        heading: 'Handbook > Annual leave',
        source: 'handbook.md › Handbook > Annual leave',
        position: 1,
      },
      { text: 'Permits cost $45 a month.', heading: 'Handbook > Parking', source: 'handbook.md › Handbook > Parking', position: 2 },
    ]);
    expect(summary.skipped).toEqual([
      { path: 'handbook.md', reason: expect.stringMatching(/Parking: fact extraction failed .*500.*kept its sentences/) },
    ]);
    // The model saw one passage per call, with its section, and was asked for JSON.
    const calls = fake.chatCalls();
    expect(calls).toHaveLength(2);
    const user = (calls[0]!.body.messages as { role: string; content: string }[])[1]!.content;
    expect(user).toContain('Section: Handbook > Annual leave');
    expect(user).toContain('Up to 5 of them can be carried forward.');
    expect(user).not.toContain('Permits');
  });

  it('an unchanged document is not sent to the model again', async () => {
    fake.server.calls.length = 0;
    const llm = app.llm!;
    const again = await ingestPaths(app.store.db, [files.path('handbook.md')], { kb: 'x', extractFacts: (p) => extractFacts(llm, p) });
    expect(again).toMatchObject({ unchanged: 1, facts: 0 });
    expect(fake.chatCalls()).toHaveLength(0);
  });

  it('CANDOR_FACT_EXTRACTION=llm without a model stops start-up with a clear message', () => {
    expect(() => testConfig({ CANDOR_FACT_EXTRACTION: 'llm' })).toThrow(/CANDOR_FACT_EXTRACTION: "llm" needs a model/);
  });
});
