import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Candor } from '../../src/app/main.js';
import { createAsk, type Ask } from '../../src/ask/ask-service.js';
import { createInteractionRecorder } from '../../src/ask/record-interaction.js';
import { evalCalibrate } from '../../src/eval/calibrate/calibrate-command.js';
import { groundingPointsFromLabels } from '../../src/eval/calibrate/grounding-label-points.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import { createLlm } from '../../src/llm/llm-client.js';
import { setLabel } from '../../src/review/label-store.js';
import { interactions, reviewSamples } from '../../src/store/schema.js';
import { jsonl, tempFiles, testConfig } from '../support/compose.js';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';
import { CITIES, MADE_UP, OFFICE_FACTS, OFFICE_QUESTION, officeModel } from '../support/office-facts.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

describe.each(DRIVERS)("calibrating the grounding check from reviewers' factuality labels (%s)", (driver) => {
  const handle = useTestStore(driver);
  const files = tempFiles({ 'offices.jsonl': jsonl(OFFICE_FACTS) }, 'candor-grounding-labels-');
  let fake: FakeOpenAi;
  let madeUp: ((city: string) => string) | undefined;
  let ask: Ask;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.server.use((call) => (call.path === '/v1/chat/completions' ? officeModel(call, madeUp ? { madeUp } : {}) : undefined));
    const config = testConfig({ OPENAI_BASE_URL: fake.baseUrl, CANDOR_LLM_MAX_RETRIES: '0' });
    const db = handle.store.db;
    await ingestPaths(db, [files.path('offices.jsonl')], { kb: 'offices' });
    ask = createAsk({
      config,
      indexes: new KnowledgeIndexCache(db),
      recorder: createInteractionRecorder(db, config.telemetry.userHashSalt),
      llm: createLlm(config.llm!),
    });
  });
  afterAll(async () => {
    await fake?.close();
    files.cleanup();
  });

  /** Asks about every office and labels each reply as a reviewer (and, where given, a judge) would. */
  async function askAndLabel(label: 'factual' | 'non_factual'): Promise<void> {
    const db = handle.store.db;
    for (const city of CITIES) {
      const d = await ask({ question: OFFICE_QUESTION(city), kb: 'offices', channel: 'test' });
      expect(d.decision).toBe('answer');
      const [sample] = await db
        .insert(reviewSamples)
        .values({ interactionId: d.interactionId!, stratum: 'answer|test|x' })
        .returning({ id: reviewSamples.id });
      await setLabel(db, { sampleId: sample!.id, task: 'factuality', annotator: 'slack:U1', value: label, via: 'reaction' });
      // A judge's label alone would not count; beside a human's it changes nothing.
      await setLabel(db, { sampleId: sample!.id, task: 'factuality', annotator: 'llm:judge@1', value: 'unsure', via: 'judge' });
    }
  }

  it("scores each labelled model answer again with the check in force, and fits the KB's threshold", async () => {
    const db = handle.store.db;
    await askAndLabel('factual');
    // Made up in words only, citing another office: the default threshold lets them through, reviewers do not.
    madeUp = (city) => MADE_UP[1]!(city);
    await askAndLabel('non_factual');
    const kbId = (await handle.store.db.select({ kbId: interactions.kbId }).from(interactions).limit(1))[0]!.kbId!;

    const { points, counts } = await groundingPointsFromLabels(db, kbId);
    // The two drafts that add a claim were withheld and quoted: a reviewer labelled the quote, not the draft.
    expect(counts).toEqual({ factual: 22, nonFactual: 24, quoted: 2 });
    // The same support the ask path stored, scored again from the row's answer, cited facts and question.
    const stored = await db.select({ support: interactions.groundingSupport, verdicts: interactions.verdicts }).from(interactions);
    const shown = stored.filter((r) => !r.verdicts.some((v) => v.code === 'draft_withheld')).map((r) => r.support!);
    const ascending = (values: number[]) => values.sort((a, b) => a - b);
    expect(ascending(points.map((p) => p.support))).toEqual(ascending(shown).map((s) => expect.closeTo(s, 5)));

    const printed: string[] = [];
    const config = testConfig();
    const app = { config, store: handle.store, indexes: new KnowledgeIndexCache(db), llm: null } as unknown as Candor;
    const said: string[] = [];
    const out = files.path('labels');
    await evalCalibrate(
      app,
      { kb: 'offices', grounding: true, out, json: true },
      (t) => printed.push(t),
      (t) => said.push(t),
    );
    expect(said).toContain("no model is configured: calibrating from reviewers' factuality labels on this KB's model answers");
    const summary = JSON.parse(printed[0]!);
    expect(summary).toMatchObject({
      method: 'labels',
      n: { supported: 22, unsupported: 24 },
      labels: { factual: 22, nonFactual: 24, quoted: 2 },
      drafts: null,
      generation: null,
      current: { source: 'default', passedSupported: 1, flaggedUnsupported: 0 },
      recommended: { meetsTarget: true, flaggedUnsupported: 1 },
      applied: null,
    });
    expect(summary.recommended.threshold).toBeGreaterThan(Math.max(...points.filter((p) => !p.supported).map((p) => p.support)));
  }, 60_000);
});
