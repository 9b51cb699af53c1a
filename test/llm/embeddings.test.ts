import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { embedMissingFacts } from '../../src/kb/embed-facts.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { factEmbeddings } from '../../src/store/schema.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { factNumber, reply, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

// Embeddings through the real `openai` client against a local OpenAI-compatible server.
describe('fact embeddings and fused retrieval', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let fake: FakeOpenAi;
  let app: Candor;
  const embedCalls = () => fake.server.callsTo('/v1/embeddings');

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    const config = testConfig({
      OPENAI_BASE_URL: fake.baseUrl,
      CANDOR_EMBEDDING_MODEL: 'embed-test',
      CANDOR_LLM_MAX_RETRIES: '0',
      CANDOR_RELEVANCE_SIGNAL: 'cosine',
    });
    app = await buildCandor(config, { telemetry: false });
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    files.cleanup();
  });
  beforeEach(() => void (fake.server.calls.length = 0));

  const stored = async () =>
    (
      await app.store.db
        .select({ n: sql<number>`count(*)::int` })
        .from(factEmbeddings)
        .where(eq(factEmbeddings.model, 'embed-test'))
    )[0]?.n;

  it('embeds in batches, and an interrupted run resumes where it stopped', async () => {
    fake.failEmbeddings({ status: 500, body: { error: { message: 'embedding backend down', type: 'server_error' } } });
    // First batch fails: nothing stored, a clear error.
    await expect(embedMissingFacts(app.store.db, app.llm!, 'handbook', { batchSize: 3 })).rejects.toThrow(/answered 500/);
    expect(await stored()).toBe(0);
    // Second batch fails: the first is kept.
    fake.failEmbeddings();
    let calls = 0;
    fake.server.use((call) =>
      call.path === '/v1/embeddings' && ++calls === 2 ? { status: 503, body: { error: { message: 'busy' } } } : undefined,
    );
    await expect(embedMissingFacts(app.store.db, app.llm!, 'handbook', { batchSize: 3 })).rejects.toThrow(/503/);
    expect(await stored()).toBe(3);
    // The next run embeds only the rest, in batches of 3, with the configured model and float encoding.
    fake.server.calls.length = 0;
    const done = await embedMissingFacts(app.store.db, app.llm!, 'handbook', { batchSize: 3 });
    expect(done).toEqual({ model: 'embed-test', embedded: HANDBOOK_FACTS.length - 3, missing: 0 });
    expect(embedCalls().map((c) => (c.body.input as string[]).length)).toEqual([3, 2]);
    expect(embedCalls()[0]!.body).toMatchObject({ model: 'embed-test', encoding_format: 'float' });
    expect(await stored()).toBe(HANDBOOK_FACTS.length);
    // Complete: a further run calls nothing.
    fake.server.calls.length = 0;
    expect(await embedMissingFacts(app.store.db, app.llm!, 'handbook')).toEqual({ model: 'embed-test', embedded: 0, missing: 0 });
    expect(embedCalls()).toHaveLength(0);
  });

  it('fuses vector and lexical retrieval: a question in other words finds its fact, and the lexical coverage layer still guards the answer', async () => {
    const d = await app.ask({ question: 'How much vacation do workers get?', kb: 'handbook', channel: 'test' }, { record: false });
    expect(embedCalls().map((c) => c.body.input)).toEqual([['How much vacation do workers get?']]);
    // Lexically nothing matches "vacation"/"workers"; by embedding, the annual-leave facts are near enough to pass the cosine rule.
    expect(d.reasons.find((r) => r.layer === 'relevance')).toMatchObject({ pass: true, detail: expect.stringContaining('cosine') });
    // A refusal offers only sections that share the question's words: none here, rather than a guess.
    expect(d.nearbyTopics).toEqual([]);
    // No fact says "vacation" or "workers": the coverage layer refuses rather than answer from a paraphrase.
    expect(d.decision).toBe('abstain');
    expect(d.reasons[0]).toMatchObject({ code: 'low_coverage' });
  });

  it('when the embedding endpoint fails at ask time, retrieval falls back to lexical and still answers', async () => {
    fake.failEmbeddings({ status: 500, body: { error: { message: 'down' } } });
    fake.script((call) => reply(true, 'Full-time staff receive 18 days of annual leave.', [factNumber(call, '18 days')]));
    const d = await app.ask(
      { question: 'How many days of annual leave do full-time staff receive?', kb: 'handbook', channel: 'test' },
      { record: false },
    );
    expect(embedCalls()).toHaveLength(1);
    expect(d.decision).toBe('answer');
    expect(d.evidence.map((e) => e.factId)).toEqual(['HB-1']);
    expect(fake.chatCalls()).toHaveLength(1);
  });
});
