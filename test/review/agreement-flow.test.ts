import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { reportAgreement } from '../../src/cli/report-commands.js';
import type { AgreementReport } from '../../src/core/review/agreement-report.js';
import { agreementDeps } from '../../src/review/judge/agreement-deps.js';
import { runAgreementReport } from '../../src/review/judge/agreement-job.js';
import { addJudgeSpec } from '../../src/review/judge/judge-specs.js';
import { currentLabels, setLabel } from '../../src/review/label-store.js';
import { interactions, reviewSamples } from '../../src/store/schema.js';
import { testConfig } from '../support/compose.js';
import { completion, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';
import { createTestStore, type TestStore } from '../support/stores.js';

// Human majority per item (Q1..Q10) and what the fake judge model answers for each.
const HUMAN = ['correct', 'correct', 'correct', 'correct', 'correct', 'correct', 'incorrect', 'incorrect', 'incorrect', 'incorrect'];
const JUDGE = ['correct', 'correct', 'correct', 'correct', 'correct', 'incorrect', 'incorrect', 'incorrect', 'incorrect', 'correct'];

describe('scheduled agreement report over one PostgreSQL, with an LLM judge', () => {
  let base: TestStore;
  let fake: FakeOpenAi;
  let a: Candor;
  let b: Candor;
  const sampleIds: number[] = [];

  beforeAll(async () => {
    base = await createTestStore('postgres');
    fake = await startFakeOpenAi();
    // The judge answers after 150 ms, so the two replicas' runs overlap.
    fake.server.use((call) => {
      if (call.path !== '/v1/chat/completions') return undefined;
      const user = (call.body.messages as { content: string }[])[1]!.content;
      const n = Number(/Question: Q(\d+)/.exec(user)?.[1]);
      return { delayMs: 150, ...completion(JSON.stringify({ label: JUDGE[n - 1], reasoning: 'per the criteria' })) };
    });
    const env = {
      DATABASE_URL: base.databaseUrl as string,
      OPENAI_BASE_URL: fake.baseUrl,
      CANDOR_JUDGE_MODEL: 'judge-model',
      CANDOR_LLM_CONCURRENCY: '4',
    };
    a = await buildCandor(testConfig(env), { telemetry: false });
    b = await buildCandor(testConfig(env), { telemetry: false });
    for (const [i, label] of HUMAN.entries()) {
      const [row] = await a.store.db
        .insert(interactions)
        .values({
          channel: 'slack',
          question: `Q${i + 1}`,
          decision: label === 'correct' ? 'answer' : 'abstain',
          answer: 'From the knowledge base: …',
        })
        .returning({ id: interactions.id });
      const [sample] = await a.store.db
        .insert(reviewSamples)
        .values({ interactionId: row!.id, stratum: 'test' })
        .returning({ id: reviewSamples.id });
      sampleIds.push(sample!.id);
      await setLabel(a.store.db, { sampleId: sample!.id, task: 'abstention', annotator: 'slack:UREVIEW', value: label, via: 'reaction' });
    }
    await addJudgeSpec(a.store.db, {
      name: 'abstention-judge',
      task: 'abstention',
      criteria: 'Correct when the bot answered from facts that state the answer, or refused when none does.',
      outcomes: ['correct', 'incorrect'],
      model: 'judge-model',
    });
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fake?.close();
    await base?.dispose();
  });

  it('two replicas running the same slot at once make one report', async () => {
    const runs = await Promise.all([
      runAgreementReport(agreementDeps(a), 'scheduled:2026-11-23T06:00Z'),
      runAgreementReport(agreementDeps(b), 'scheduled:2026-11-23T06:00Z'),
    ]);
    expect(runs.map((r) => r.status).sort()).toEqual(['busy', 'created']);
    const count = (await a.store.db.execute(sql`select count(*)::int as n from agreement_reports`)) as unknown as { rows: { n: number }[] };
    expect(count.rows[0]!.n).toBe(1);
    // Each item judged once: one model call per item.
    expect(fake.chatCalls()).toHaveLength(10);
    // Running the slot again later finds the report made.
    expect((await runAgreementReport(agreementDeps(b), 'scheduled:2026-11-23T06:00Z')).status).toBe('exists');
  });

  it('the judge labels are stored under llm:<spec>@<version>, and the kappa is the hand-computed one', async () => {
    const judged = (await currentLabels(a.store.db, { task: 'abstention' })).filter((l) => l.annotator === 'llm:abstention-judge@1');
    expect(judged.map((l) => l.value)).toEqual(JUDGE);
    let printed = '';
    await reportAgreement(a, { json: true, task: 'abstention' }, (t) => (printed = t));
    const report = JSON.parse(printed) as AgreementReport & { runKey: string };
    expect(report.runKey).toBe('scheduled:2026-11-23T06:00Z');
    const judge = report.tasks[0]!.judges[0]!;
    // po = 8/10; both put 6 of 10 in "correct": pe = 0.36 + 0.16 = 0.52; kappa = 0.28 / 0.48.
    expect(judge.cohensKappa).toBeCloseTo(0.28 / 0.48, 4);
    expect(judge.disagreements.map((d) => d.sampleId)).toEqual([sampleIds[5], sampleIds[9]]);
  });
});
