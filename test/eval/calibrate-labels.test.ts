import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { Candor } from '../../src/app/main.js';
import { GATE_MODEL } from '../../src/ask/gate-model.js';
import { modelRef } from '../../src/core/gate/answerability-model.js';
import { evalCalibrate } from '../../src/eval/calibrate/calibrate-command.js';
import { pointsFromLabels } from '../../src/eval/calibrate/label-points.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import { setLabel } from '../../src/review/label-store.js';
import type { Db } from '../../src/store/open-store.js';
import { interactions, knowledgeBases, reviewSamples } from '../../src/store/schema.js';
import { HANDBOOK_FACTS, tempFiles, testConfig } from '../support/compose.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

const MODEL = modelRef(GATE_MODEL);

/** A live interaction with its stored score, sampled, and labelled by the given annotators. */
async function labelled(
  db: Db,
  kbId: number,
  decision: 'answer' | 'abstain',
  score: number,
  labels: Record<string, 'correct' | 'incorrect'>,
  model = MODEL,
) {
  const [row] = await db
    .insert(interactions)
    .values({
      channel: 'slack',
      question: `q ${score}`,
      kbId,
      decision,
      answerability: { score, threshold: 0.5, thresholdSource: 'model', model, features: {}, contributions: {} },
    })
    .returning({ id: interactions.id });
  const [sample] = await db
    .insert(reviewSamples)
    .values({ interactionId: row!.id, stratum: `${decision}|slack|x` })
    .returning({ id: reviewSamples.id });
  for (const [annotator, value] of Object.entries(labels)) {
    await setLabel(db, {
      sampleId: sample!.id,
      task: 'abstention',
      annotator,
      value,
      via: annotator.startsWith('llm:') ? 'judge' : 'reaction',
    });
  }
}

for (const driver of DRIVERS) {
  describe(`calibrating from reviewer labels (${driver})`, () => {
    const handle = useTestStore(driver);

    it('turns the human majority on the abstention task into what should have been answered or refused', async () => {
      const db = handle.store.db;
      const files = tempFiles({ 'handbook.jsonl': HANDBOOK_FACTS.map((f) => JSON.stringify(f)).join('\n') });
      await ingestPaths(db, [files.path('handbook.jsonl')], { kb: 'handbook' });
      const [kb] = await db.select().from(knowledgeBases);
      const kbId = kb!.id;
      // Answers reviewers call right, at high scores; answers they call wrong, at middling ones.
      for (let i = 0; i < 12; i++) await labelled(db, kbId, 'answer', 0.7 + i / 100, { 'slack:U1': 'correct', 'slack:U2': 'correct' });
      for (let i = 0; i < 10; i++) await labelled(db, kbId, 'answer', 0.5 + i / 100, { 'slack:U1': 'incorrect', 'llm:judge@1': 'correct' });
      // Refusals reviewers call right, at low scores; two they say should have been answered.
      for (let i = 0; i < 6; i++) await labelled(db, kbId, 'abstain', 0.1 + i / 100, { 'slack:U2': 'correct' });
      await labelled(db, kbId, 'abstain', 0.45, { 'slack:U1': 'incorrect' });
      await labelled(db, kbId, 'abstain', 0.46, { 'slack:U1': 'incorrect' });
      // A tie between humans counts for nothing; a judge alone counts for nothing; another model's score is left out.
      await labelled(db, kbId, 'answer', 0.9, { 'slack:U1': 'correct', 'slack:U2': 'incorrect' });
      await labelled(db, kbId, 'answer', 0.9, { 'llm:judge@1': 'incorrect' });
      await labelled(db, kbId, 'answer', 0.9, { 'slack:U1': 'correct' }, 'answerability-lr@0');

      const { points, skipped } = await pointsFromLabels(db, kbId, MODEL);
      expect(skipped).toBe(1);
      expect(
        points
          .filter((p) => p.kind === 'answerable')
          .map((p) => p.score)
          .sort(),
      ).toEqual([0.45, 0.46, ...Array.from({ length: 12 }, (_, i) => 0.7 + i / 100)].sort());
      expect(points.filter((p) => p.kind === 'refusable')).toHaveLength(16);

      const out = files.path('labels');
      const printed: string[] = [];
      const config = testConfig();
      const app = { config, store: handle.store, indexes: new KnowledgeIndexCache(db) } as unknown as Candor;
      await evalCalibrate(
        app,
        { kb: 'handbook', fromLabels: true, apply: false, json: true, out, targetAbstention: '0.75' },
        (t) => printed.push(t),
        () => undefined,
      );
      const summary = JSON.parse(printed[0] as string);
      // Refusable scores: six at 0.10–0.15 and ten at 0.50–0.59; 75% of 16 is 12, first reached at 0.56 (0.50–0.55 below it).
      expect(summary).toMatchObject({
        method: 'labels',
        n: { answerable: 14, refusable: 16 },
        recommended: { threshold: 0.56, abstained: 0.75, meetsTarget: true },
      });
      expect(summary.recommended.answeredRight).toBeCloseTo(12 / 14, 4);
      expect(JSON.parse(readFileSync(`${out}.json`, 'utf8'))).toEqual(summary);
      files.cleanup();
    });
  });
}
