import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openStore, type Store } from '../../src/store/open-store.js';
import { knowledgeBases } from '../../src/store/schema.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { jsonl, tempFiles } from '../support/compose.js';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';
import { migratedStore } from '../support/migrated-store.js';
import { CITIES, OFFICE_FACTS, OFFICE_QUESTION, officeModel } from '../support/office-facts.js';
import { createTestStore, DRIVERS, type TestStore } from '../support/stores.js';

interface Summary {
  method: string;
  n: { supported: number; unsupported: number };
  drafts: { questions: number; supported: { scored: number }; unsupported: { scored: number } };
  current: { threshold: number; source: string; flaggedUnsupported: number };
  recommended: { threshold: number; passedSupported: number; flaggedUnsupported: number; meetsTarget: boolean };
  auc: number;
  sweep: { threshold: number; passedSupported: number; flaggedUnsupported: number }[];
  files: { svg: string; json: string };
  applied: { version: number; threshold: number } | null;
}

describe.each(DRIVERS)('candor eval calibrate --grounding, end to end through the CLI (%s)', (driver) => {
  const files = tempFiles({ 'offices.jsonl': jsonl(OFFICE_FACTS) }, 'candor-grounding-cal-');
  let fake: FakeOpenAi;
  let pg: TestStore | undefined;
  let where: Record<string, string>;
  const model = () => ({ OPENAI_BASE_URL: fake.baseUrl, CANDOR_LLM_MAX_RETRIES: '0' });
  const candor = (args: string[], env: Record<string, string> = {}) => candorInProcess(args, { ...where, LOG_LEVEL: 'silent', ...env });

  /** The store the CLI uses, opened beside it for a moment (PGlite's folder holds one opener at a time). */
  const withStore = async (run: (store: Store) => Promise<void>) => {
    if (pg) return run(pg.store);
    const store = await openStore({ dataDir: where.CANDOR_DATA_DIR as string });
    try {
      await run(store);
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.server.use((call) => (call.path === '/v1/chat/completions' ? officeModel(call) : undefined));
    if (driver === 'postgres') {
      pg = await createTestStore('postgres');
      where = { DATABASE_URL: pg.databaseUrl as string };
    } else where = { CANDOR_DATA_DIR: await migratedStore(files.path('data')) };
    const ingest = await candor(['ingest', files.path('offices.jsonl'), '--kb', 'offices']);
    expect(ingest.code, ingest.stderr).toBe(0);
    await withStore(async (store) => void (await store.db.insert(knowledgeBases).values({ name: 'empty' })));
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    await pg?.dispose();
    files.cleanup();
  });

  it('recommends the highest threshold passing 90% of supported drafts, writes SVG + JSON; --apply stores it and the next ask uses it', async () => {
    const out = files.path('offices-grounding');
    const run = await candor(['eval', 'calibrate', '--grounding', '--kb', 'offices', '--out', out, '--json'], model());
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary).toMatchObject({
      method: 'model',
      n: { supported: 24, unsupported: 24 },
      drafts: { questions: 24, supported: { scored: 24 }, unsupported: { scored: 24 } },
      current: { source: 'default' },
      recommended: { meetsTarget: true },
      files: { svg: `${out}.svg`, json: `${out}.json` },
      applied: null,
    });
    // The highest such threshold: one step up passes fewer than 90% of the supported drafts (the two that add a
    // claim fail at any threshold: 22 of 24 pass); the made-up answers the default lets through are flagged there.
    const { threshold } = summary.recommended;
    expect(threshold).toBeLessThan(0.99);
    expect(summary.recommended.passedSupported).toBeCloseTo(22 / 24, 4);
    const above = summary.sweep.find((p) => Math.abs(p.threshold - (threshold + 0.01)) < 1e-9);
    expect(above!.passedSupported).toBeLessThan(0.9);
    expect(summary.recommended.flaggedUnsupported).toBeGreaterThan(summary.current.flaggedUnsupported);
    expect(summary.auc).toBeGreaterThan(0.85);
    expect(summary.auc).toBeLessThan(1);
    expect(JSON.parse(readFileSync(`${out}.json`, 'utf8'))).toEqual(summary);
    const svg = readFileSync(`${out}.svg`, 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(`recommended: t=${threshold.toFixed(2)}`);
    expect(svg).toContain('current (default): t=');
    expect(run.stderr).toContain('grounding: the model answered 48/48 drafts');
    // 24 questions generated and 48 drafts: 72 model calls.
    expect(fake.chatCalls()).toHaveLength(72);

    // Applied: the questions and drafts come from PREFIX.cache.jsonl, so the model is asked nothing again.
    const applied = await candor(['eval', 'calibrate', '--grounding', '--kb', 'offices', '--out', out, '--apply'], model());
    expect(applied.code, applied.stderr).toBe(0);
    expect(fake.chatCalls()).toHaveLength(72);
    expect(applied.stdout).toContain(`recommended threshold ${threshold.toFixed(2)}: supported drafts passed`);
    expect(applied.stdout).toContain(`applied: "offices" now holds model answers to ${threshold} (grounding settings v1)`);
    expect((JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Summary).applied).toEqual({ version: 1, threshold });

    const ask = await candor(['ask', OFFICE_QUESTION('Oslo'), '--kb', 'offices', '--json'], model());
    expect(ask.code, ask.stderr).toBe(0);
    const decision = JSON.parse(ask.stdout) as {
      decision: string;
      reasons: { layer: string; threshold?: number; thresholdSource?: string }[];
    };
    expect(decision.decision).toBe('answer');
    expect(decision.reasons.find((r) => r.layer === 'grounding')).toMatchObject({ threshold, thresholdSource: 'kb@1' });
    // And the next calibration reports the stored threshold as the one in force.
    const again = await candor(['eval', 'calibrate', '--grounding', '--kb', 'offices', '--out', out, '--json'], model());
    expect((JSON.parse(again.stdout) as Summary).current).toMatchObject({ threshold, source: 'kb@1' });
  }, 120_000);

  it('asks the questions of --questions FILE (the eval loo format) instead of writing its own', async () => {
    files.write(
      'questions.jsonl',
      jsonl(OFFICE_FACTS.map((f, i) => ({ id: `q${i}`, question: OFFICE_QUESTION(CITIES[i]!), factId: f.id }))),
    );
    const before = fake.chatCalls().length;
    const run = await candor(
      [
        'eval',
        'calibrate',
        '--grounding',
        '--kb',
        'offices',
        '--questions',
        files.path('questions.jsonl'),
        '--out',
        files.path('given'),
        '--json',
      ],
      model(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ method: 'model', n: { supported: 24, unsupported: 24 } });
    const calls = fake.chatCalls().slice(before);
    expect(calls).toHaveLength(48);
    expect(calls.every((c) => (c.body.response_format as { json_schema: { name: string } }).json_schema.name === 'grounded_answer')).toBe(
      true,
    );
    files.write('unknown.jsonl', jsonl([{ id: 'q', question: 'Where?', factId: 'OF-99' }]));
    const unknown = await candor(
      ['eval', 'calibrate', '--grounding', '--kb', 'offices', '--questions', files.path('unknown.jsonl')],
      model(),
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('1 factIds are not in knowledge base "offices": OF-99');
  });

  it('without a model and with too few labels, says what is missing and exits non-zero', async () => {
    const run = await candor(['eval', 'calibrate', '--grounding', '--kb', 'offices', '--out', files.path('no-model')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no model is configured: calibrating from reviewers' factuality labels");
    expect(run.stderr).toMatch(
      /Too few reviewers' labels to calibrate the grounding check of "offices": 0 model answers labelled factual and 0 non_factual/,
    );
    expect(run.stderr).toContain('at least 20 of each are needed');
    expect(run.stderr).toContain('No model is configured');
  });

  it('bad input: an unknown KB, a KB with no facts, the gate’s target', async () => {
    const unknown = await candor(['eval', 'calibrate', '--grounding', '--kb', 'nope'], model());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no knowledge base named "nope"');
    const empty = await candor(['eval', 'calibrate', '--grounding', '--kb', 'empty'], model());
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Knowledge base "empty" has no facts');
    const target = await candor(['eval', 'calibrate', '--grounding', '--kb', 'offices', '--target-abstention', '0.8'], model());
    expect(target.code).toBe(1);
    expect(target.stderr).toContain("--target-abstention is the gate's");
    const maxWithoutGrounding = await candor(['eval', 'calibrate', '--kb', 'offices', '--from-labels', '--max-questions', '5']);
    expect(maxWithoutGrounding.code).toBe(1);
    expect(maxWithoutGrounding.stderr).toContain('--max-questions is for --grounding');
  });
});
