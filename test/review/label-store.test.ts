import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { currentLabels, labelHistory, removeLabel, setLabel, type LabelChange } from '../../src/review/label-store.js';
import type { Db } from '../../src/store/open-store.js';
import { interactions, reviewSamples } from '../../src/store/schema.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

async function newSample(db: Db): Promise<number> {
  const [row] = await db
    .insert(interactions)
    .values({ channel: 'test', question: 'Who pays?', decision: 'abstain', reason: 'low_margin' })
    .returning({ id: interactions.id });
  const [sample] = await db
    .insert(reviewSamples)
    .values({ interactionId: row!.id, stratum: 'abstain|test|low_margin' })
    .returning({ id: reviewSamples.id });
  return sample!.id;
}

for (const driver of DRIVERS) {
  describe(`label store (${driver})`, () => {
    const handle = useTestStore(driver);
    const db = () => handle.store.db;
    const label = (sampleId: number, over: Partial<LabelChange> = {}): LabelChange => ({
      sampleId,
      task: 'abstention',
      annotator: 'slack:UREV1',
      value: 'correct',
      via: 'reaction',
      ...over,
    });

    it('a label is recorded once; repeating it changes nothing', async () => {
      const id = await newSample(db());
      expect(await setLabel(db(), label(id, { eventId: `${driver}-e1` }))).toBe('recorded');
      expect(await setLabel(db(), label(id, { eventId: `${driver}-e1` }))).toBe('unchanged');
      expect(await setLabel(db(), label(id, { via: 'button' }))).toBe('unchanged');
      expect(await currentLabels(db(), { sampleIds: [id] })).toEqual([
        { sampleId: id, task: 'abstention', annotator: 'slack:UREV1', value: 'correct' },
      ]);
      expect(await labelHistory(db(), id)).toHaveLength(1);
    });

    it('a changed label counts as the latest, and the history keeps both', async () => {
      const id = await newSample(db());
      await setLabel(db(), label(id));
      expect(await setLabel(db(), label(id, { value: 'incorrect', via: 'button' }))).toBe('recorded');
      expect((await currentLabels(db(), { sampleIds: [id] })).map((l) => l.value)).toEqual(['incorrect']);
      expect((await labelHistory(db(), id)).map((e) => [e.action, e.value, e.via])).toEqual([
        ['set', 'correct', 'reaction'],
        ['set', 'incorrect', 'button'],
      ]);
    });

    it('removing a reaction removes that label, but not a newer one given another way', async () => {
      const id = await newSample(db());
      await setLabel(db(), label(id));
      expect(await removeLabel(db(), label(id))).toBe('removed');
      expect(await currentLabels(db(), { sampleIds: [id] })).toEqual([]);

      await setLabel(db(), label(id));
      await setLabel(db(), label(id, { value: 'incorrect', via: 'button' }));
      expect(await removeLabel(db(), label(id))).toBe('not_current');
      expect((await currentLabels(db(), { sampleIds: [id] })).map((l) => l.value)).toEqual(['incorrect']);
    });

    it('labels of different annotators and tasks are independent; a task filter selects', async () => {
      const id = await newSample(db());
      await setLabel(db(), label(id));
      await setLabel(db(), label(id, { annotator: 'slack:UREV2', value: 'incorrect' }));
      await setLabel(db(), label(id, { task: 'dontknowness', value: '4' }));
      await setLabel(db(), label(id, { annotator: 'llm:abstention-judge@1', via: 'judge' }));
      const all = await currentLabels(db(), { sampleIds: [id] });
      expect(all.map((l) => `${l.task}/${l.annotator}=${l.value}`)).toEqual([
        'abstention/llm:abstention-judge@1=correct',
        'abstention/slack:UREV1=correct',
        'abstention/slack:UREV2=incorrect',
        'dontknowness/slack:UREV1=4',
      ]);
      expect((await currentLabels(db(), { task: 'dontknowness', sampleIds: [id] })).map((l) => l.value)).toEqual(['4']);
    });

    it('a label for a sample that does not exist is refused by the database and stores nothing', async () => {
      const count = async () =>
        ((await db().execute(sql`select count(*)::int as n from label_events`)) as unknown as { rows: { n: number }[] }).rows[0]?.n;
      const before = await count();
      await expect(setLabel(db(), label(987654))).rejects.toThrow();
      expect(await count()).toBe(before);
    });
  });
}
