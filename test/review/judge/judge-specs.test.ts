import { describe, expect, it } from 'vitest';

import { addJudgeSpec, judgeAnnotator, listJudgeSpecs } from '../../../src/review/judge/judge-specs.js';
import { DRIVERS, useTestStore } from '../../support/stores.js';

const SPEC = {
  name: 'abstention-judge',
  task: 'abstention' as const,
  criteria: 'Correct when the bot refused a question its evidence does not answer, or answered one it does.',
  outcomes: ['correct', 'incorrect'],
  model: 'judge-model',
};

for (const driver of DRIVERS) {
  describe(`judge specs (${driver})`, () => {
    const handle = useTestStore(driver);

    it('a new name starts at version 1; adding it again makes version 2 and keeps version 1', async () => {
      const first = await addJudgeSpec(handle.store.db, SPEC);
      expect(first).toMatchObject({ name: 'abstention-judge', version: 1, promptId: 'judge', promptVersion: '1' });
      const second = await addJudgeSpec(handle.store.db, { ...SPEC, criteria: `${SPEC.criteria} Partial answers count as answers.` });
      expect(second.version).toBe(2);
      expect(judgeAnnotator(second)).toBe('llm:abstention-judge@2');
      expect((await listJudgeSpecs(handle.store.db)).map((s) => s.version)).toEqual([2, 1]);
      expect((await listJudgeSpecs(handle.store.db, { latestOnly: true })).map((s) => s.version)).toEqual([2]);
    });

    it('concurrent adds of one name get distinct versions', async () => {
      const specs = await Promise.all([1, 2, 3].map(() => addJudgeSpec(handle.store.db, { ...SPEC, name: 'racer' })));
      expect(specs.map((s) => s.version).sort()).toEqual([1, 2, 3]);
    });

    it('refuses a spec without written criteria, with a bad task or name, and stores nothing', async () => {
      await expect(addJudgeSpec(handle.store.db, { ...SPEC, name: 'short', criteria: 'be good' })).rejects.toThrow(
        /criteria: write the criteria out/,
      );
      await expect(addJudgeSpec(handle.store.db, { ...SPEC, name: 'Bad Name' })).rejects.toThrow(/name: expected a lower-case name/);
      await expect(addJudgeSpec(handle.store.db, { ...SPEC, name: 'tasky', task: 'vibes' as 'abstention' })).rejects.toThrow(/task/);
      const names = (await listJudgeSpecs(handle.store.db)).map((s) => s.name);
      expect(names).not.toContain('short');
      expect(names).not.toContain('tasky');
    });
  });
}
