import { describe, expect, it } from 'vitest';

import { groupRefusals, type RefusedQuestion } from '../../../src/core/report/gap-topics.js';
import { GAP_TOPICS } from '../../support/gap-questions.js';

/** Distinct questions with their ask counts, as the store query hands them over. */
function refusals(questions: readonly string[]): RefusedQuestion[] {
  const counts = new Map<string, number>();
  for (const q of questions) counts.set(q, (counts.get(q) ?? 0) + 1);
  return [...counts].map(([question, times], i) => ({
    question,
    times,
    reasons: { no_evidence: times },
    lastAsked: `2026-11-2${i % 10}T00:00:00Z`,
    interactionId: i + 1,
  }));
}

/** A KB that uses the organisation's everyday words a lot and never the gap topics. */
const KB_WORDS = new Set(['staff', 'offic', 'office', 'cost', 'work', 'claim', 'bring', 'allow', 'open', 'free']);
const kbWeight = (term: string) => (KB_WORDS.has(term) ? 0.5 : 6);

describe('groupRefusals', () => {
  it('groups thirty refusals on three topics into three groups of ten, named by their topic', () => {
    const groups = groupRefusals(refusals(Object.values(GAP_TOPICS).flat()), { termWeight: kbWeight });
    // Equal counts: the order among them is by latest ask, then name; compare as a set.
    expect(groups.map((g) => [g.terms[0], g.count, g.questions]).sort()).toEqual([
      ['gym', 10, 9],
      ['pet', 10, 9],
      ['shuttle', 10, 9],
    ]);
    expect(groups.find((g) => g.terms[0] === 'shuttle')?.topic).toMatch(/^shuttle \/ bus/);
  });

  it('names a topic by content words: never an amount word ("much", "many"), nor a word the KB holds when others tell', () => {
    const [parking] = groupRefusals(refusals(['Is there much parking near the gym?', 'Is there much parking at the gym on weekends?']));
    expect(parking?.terms).toEqual(['gym', 'parking']);
    expect(parking?.terms).not.toContain('much');
    const [dogs] = groupRefusals(refusals(['Can I bring my dog to the office?', 'Are dogs allowed in the office?']), {
      termWeight: (term) => (KB_WORDS.has(term) ? 0 : 6),
    });
    expect(dogs?.topic).toBe('dog');
    const [lone] = groupRefusals(refusals(['How many car parks have so many chargers?']));
    expect(lone?.terms).toEqual(['car', 'parks', 'chargers']);
  });

  it('lists the most asked questions first as examples, and counts reasons over every ask', () => {
    const [shuttle] = groupRefusals(refusals(GAP_TOPICS.shuttle), { termWeight: kbWeight, maxExamples: 3 });
    expect(shuttle?.examples).toHaveLength(3);
    expect(shuttle?.examples[0]).toMatchObject({ question: 'Is there a shuttle bus from the train station?', times: 2 });
    expect(shuttle?.reasons).toEqual({ no_evidence: 10 });
  });

  it('joins wordings that share no word through words that recur together ("dog" asked with "pets")', () => {
    const groups = groupRefusals(refusals([...GAP_TOPICS.pets, 'Is my dog welcome?']), { termWeight: kbWeight });
    expect(groups.map((g) => [g.terms[0], g.count])).toEqual([['pet', 11]]);
  });

  it('keeps a question that shares no recurring word with any other on its own', () => {
    const groups = groupRefusals(refusals([...GAP_TOPICS.gym, 'What is the wifi password for the guest network?']), {
      termWeight: kbWeight,
    });
    expect(groups.map((g) => g.count)).toEqual([10, 1]);
    expect(groups[1]?.examples[0]?.question).toContain('wifi');
  });

  it('keeps apart two questions that share only words of no weight (words the KB holds), however few there are', () => {
    const groups = groupRefusals(refusals(['Is there a gym in the office building?', 'Can I bring my dog to the office?']), {
      termWeight: (term) => (KB_WORDS.has(term) ? 0 : 6),
    });
    expect(groups.map((g) => g.questions)).toEqual([1, 1]);
  });

  it('is deterministic and handles nothing to group', () => {
    const input = refusals(Object.values(GAP_TOPICS).flat());
    // The same groups whatever the order (members are indexes into the input, so they differ by construction).
    const groups = (list: typeof input) => groupRefusals(list, { termWeight: kbWeight }).map(({ members: _, ...g }) => g);
    expect(groups(input)).toEqual(groups([...input].reverse()));
    expect(groupRefusals([])).toEqual([]);
  });
});
