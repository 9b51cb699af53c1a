import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../src/app/main.js';
import { reportAgreement } from '../../src/cli/report-commands.js';
import { reviewImport } from '../../src/cli/review-commands.js';
import type { DetectReport } from '../../src/core/judge/detect-report.js';
import type { AgreementReport } from '../../src/core/review/agreement-report.js';
import { evalDetect } from '../../src/eval/detect-command.js';
import { importLabels } from '../../src/review/import-labels.js';
import { currentLabels } from '../../src/review/label-store.js';
import { sampleInteractions } from '../../src/review/sample-interactions.js';
import { interactions, reviewSamples } from '../../src/store/schema.js';
import { jsonl, tempFiles, testConfig } from '../support/compose.js';

// Rows as PolicyBench publishes them: leave-one-out ("removal") replies with the judge's labels.
const row = (n: number, response: string, abstention: 'yes' | 'no', factuality: string) => ({
  experiment_type: 'removal',
  response_id: `PB_${n}`,
  question: `Question ${n} about the parking permit?`,
  response,
  abstention,
  factuality,
});
const ROWS = [
  row(1, "I don't know.", 'yes', 'NA'),
  row(2, 'The context does not specify how the permit is renewed.', 'yes', 'NA'),
  row(3, 'Permits cost $45 per month.', 'no', 'tier_1'),
  row(4, 'You renew it every January at the front desk.', 'no', 'tier_3'),
  row(5, 'No, renewal by post is not mentioned.', 'no', 'tier_2'), // the detector reads a decline here: a disagreement
  row(6, 'There is no information about permits for visitors.', 'yes', 'NA'),
];

describe('candor review import and the agreement report on imported labels', () => {
  let app: Candor;
  const files = tempFiles({ 'pb.jsonl': jsonl(ROWS) });
  const out: string[] = [];
  const print = (text: string) => void out.push(text);

  beforeAll(async () => {
    app = await buildCandor(testConfig(), { telemetry: false });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    files.cleanup();
  });

  it('imports the replies as review items with the annotator’s abstention labels, scored against the right decision', async () => {
    const summary = await importLabels(app.store.db, { annotator: 'pb-gpt41', task: 'abstention', file: files.path('pb.jsonl') });
    expect(summary).toMatchObject({
      annotator: 'import:pb-gpt41',
      rows: 6,
      items: { added: 6, existing: 0 },
      labels: { recorded: 6, unchanged: 0 },
    });
    const labels = await currentLabels(app.store.db, { task: 'abstention' });
    // Abstaining was right for every removal question: "yes" (abstained) is correct.
    expect(labels.map((l) => l.value)).toEqual(['correct', 'correct', 'incorrect', 'incorrect', 'incorrect', 'correct']);
    const [stored] = await app.store.db.select().from(interactions).where(eq(interactions.eventId, 'PB_2'));
    expect(stored).toMatchObject({
      channel: 'import',
      status: 'imported',
      decision: null,
      expectedDecision: 'abstain',
      answer: ROWS[1]!.response,
    });
  });

  it('is idempotent, and reads factuality tiers from the same file (NA: not applicable)', async () => {
    const again = await importLabels(app.store.db, { annotator: 'pb-gpt41', task: 'abstention', file: files.path('pb.jsonl') });
    expect(again).toMatchObject({ items: { added: 0, existing: 6 }, labels: { recorded: 0, unchanged: 6 } });
    const facts = await importLabels(app.store.db, { annotator: 'pb-gpt41', task: 'factuality', file: files.path('pb.jsonl') });
    expect(facts).toMatchObject({ items: { added: 0, existing: 6 }, labels: { recorded: 3 }, notApplicable: 3 });
    expect((await currentLabels(app.store.db, { task: 'factuality' })).map((l) => l.value)).toEqual(['factual', 'non_factual', 'factual']);
    expect((await app.store.db.select({ n: count() }).from(interactions))[0]!.n).toBe(6);
  });

  it('imported items are never sampled again nor waiting to be posted to a review channel', async () => {
    expect(await sampleInteractions(app.store.db, { answeredRate: 1, abstainedRate: 1, maxPerRun: 100, seed: 1 })).toEqual([]);
    const samples = await app.store.db.select({ postedTo: reviewSamples.postedTo }).from(reviewSamples);
    expect(samples.every((s) => s.postedTo === 'import')).toBe(true);
  });

  it('report agreement --run --json gives the rule judge’s agreement per task, matching eval detect on the same file', async () => {
    out.length = 0;
    await reportAgreement(app, { run: true, json: true }, print);
    const report = JSON.parse(out[0]!) as AgreementReport;
    const abstention = report.tasks.find((t) => t.task === 'abstention')!;
    expect(abstention.humans).toEqual(['import:pb-gpt41']);
    const rule = abstention.judges.find((j) => j.judge === 'rule:abstention@1')!;
    expect(report.tasks.find((t) => t.task === 'factuality')).toMatchObject({ items: 3, humans: ['import:pb-gpt41'] });

    let text = '';
    evalDetect({ responses: files.path('pb.jsonl'), json: true }, (t) => (text += t));
    const detect = JSON.parse(text) as DetectReport;
    // Same items, same seed: yes/no (did it abstain) maps one-to-one onto correct/incorrect here.
    expect(rule.items).toBe(detect.agreement!.items);
    expect(rule.percentAgreement).toBe(detect.agreement!.percentAgreement);
    expect(rule.cohensKappa).toBe(detect.agreement!.cohensKappa);
    expect(rule.kappaCI).toEqual(detect.agreement!.kappaCI);
    expect(rule.confusion.matrix).toEqual(detect.agreement!.confusion.matrix);
    expect(rule.disagreements).toHaveLength(1);
    expect(detect.agreement!.disagreements.map((d) => d.id)).toEqual(['PB_5']);
  });

  it('refuses a file with bad lines and stores nothing from it', async () => {
    const bad = files.write(
      'bad.jsonl',
      jsonl([
        { id: 'PB_3', question: ROWS[2]!.question, response: 'A different reply.', label: 'correct' },
        { id: 'NEW_1', question: 'q?', response: 'r', label: 'yes' },
        { id: 'NEW_2', question: 'q?', response: 'r', label: 'maybe' },
      ]),
    );
    const before = (await app.store.db.select({ n: count() }).from(interactions))[0]!.n;
    await expect(importLabels(app.store.db, { annotator: 'pb-gpt41', task: 'abstention', file: bad })).rejects.toThrow(
      /3 bad lines, nothing imported:\n {2}line 2: "yes" says whether the reply abstained.*answerable[\s\S]*line 3: "maybe" is not a label for abstention[\s\S]*line 1: id "PB_3" was imported before with a different question or reply/,
    );
    expect((await app.store.db.select({ n: count() }).from(interactions))[0]!.n).toBe(before);
  });

  it('checks the annotator name and the task', async () => {
    await expect(importLabels(app.store.db, { annotator: 'bad name!', task: 'abstention', file: files.path('pb.jsonl') })).rejects.toThrow(
      /--annotator/,
    );
    await expect(
      importLabels(app.store.db, { annotator: 'x', task: 'dontknowness' as 'abstention', file: files.path('pb.jsonl') }),
    ).rejects.toThrow(/--task must be abstention or factuality/);
  });

  it('the rule judge skips items whose right decision is unknown', async () => {
    files.write('plain.jsonl', jsonl([{ id: 'PLAIN_1', question: 'Is it free?', response: "I don't know.", label: 'correct' }]));
    out.length = 0;
    await reviewImport(app, { file: files.path('plain.jsonl'), annotator: 'someone', task: 'abstention' }, print);
    expect(out[0]).toMatch(/^imported 1 replies .*1 abstention labels by import:someone recorded/);
    await reportAgreement(app, { run: true, json: true }, (t) => (out[1] = t));
    const report = JSON.parse(out[1]!) as AgreementReport & { judgeRuns: { spec: string; judged: number; skipped: number }[] };
    expect(report.judgeRuns).toContainEqual({ spec: 'rule:abstention@1', judged: 0, failed: [], skipped: 1 });
  });
});
