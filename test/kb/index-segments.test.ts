import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { MAX_SEGMENTS } from '../../src/core/retrieval/merge-policy.js';
import { addExpertFact, retireFact } from '../../src/kb/expert-facts.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import type { KnowledgeIndex } from '../../src/kb/knowledge-index.js';
import type { Db } from '../../src/store/open-store.js';
import { tempFiles } from '../support/compose.js';
import { DRIVERS, useTestStore, type DriverName } from '../support/stores.js';

const QUESTIONS = [
  'How many days of annual leave do staff get?',
  'How much does a parking permit cost?',
  'Where do I park my bicycle?',
  'Who approves sick leave?',
  'Can leave be carried over to next year?',
  'What is the canteen breakfast time?',
];

const LEAVE_V1 = `# Leave

## Annual leave
Staff get 18 days of annual leave a year.
Up to 5 days of annual leave can be carried over to next year.

## Sick leave
Sick leave is approved by your line manager.
`;

const LEAVE_V2 = `# Leave

## Annual leave
Staff get 21 days of annual leave a year.
Up to 10 days of annual leave can be carried over to next year.

## Sick leave
Sick leave is approved by your line manager.
`;

const PARKING = `# Parking

## Permits
A staff parking permit costs $45 per month.

## Bicycles
Bicycles are parked in the basement racks.
`;

const IT_DESK = `# IT desk

## Laptops
Laptops are replaced every four years.
A lost laptop is reported to the IT desk within a day.

## Passwords
Passwords are changed every ninety days.
Passwords have at least twelve characters.

## Printers
Printers are on every floor beside the lifts.
Colour printing needs a manager's approval.
`;

/** What an answer is built from: each question's evidence (fact, link, score), and every live fact. */
function answersOf(index: KnowledgeIndex) {
  return {
    facts: index.allFacts().map((fact) => `${fact.id} ${fact.url ?? '-'} ${fact.text}`),
    evidence: QUESTIONS.map((question) => index.retrieve(question, 5).map((e) => `${e.factId} ${e.url ?? '-'} ${e.score.toFixed(12)}`)),
  };
}

const BUILDS = DRIVERS.flatMap((driver) => [
  [driver, 'inline'],
  [driver, 'worker'],
]) as [DriverName, 'inline' | 'worker'][];

describe.each(BUILDS)('a KB version as a segment of what changed (%s, built %s)', (driver, build) => {
  const handle = useTestStore(driver);
  const cache = (db: Db) => new KnowledgeIndexCache(db, build === 'worker' ? { offThread: true, inlineFacts: 0 } : {});
  const files = tempFiles({});

  it('each update adds a segment and deletes what it retired, answering as a full build of the version does', async () => {
    mkdirSync(files.path('hr'));
    files.write('hr/leave.md', LEAVE_V1);
    files.write('hr/parking.md', PARKING);
    files.write('hr/it.md', IT_DESK);
    const db = handle.store.db;
    const urls = (base: string) => ({ 'hr/': base });
    await ingestPaths(db, [files.path('hr')], { kb: 'segments', sourceUrls: urls('https://intranet.example.com/hr/') });
    const served = cache(db);
    const first = await served.get('segments');
    expect(first.bm25.segments).toHaveLength(1);

    // [what changed, how, whether the index adds a segment (or rebuilds: links changed in place)]
    const changes: [string, () => Promise<unknown>, 'segment' | 'rebuild'][] = [
      [
        'a changed document',
        () => {
          files.write('hr/leave.md', LEAVE_V2);
          return ingestPaths(db, [files.path('hr')], { kb: 'segments', sourceUrls: urls('https://intranet.example.com/hr/') });
        },
        'segment',
      ],
      [
        'documents re-linked',
        () => ingestPaths(db, [files.path('hr')], { kb: 'segments', sourceUrls: urls('https://wiki.example.com/hr/') }),
        'rebuild',
      ],
      [
        'an expert answer',
        () =>
          addExpertFact(db, {
            kb: 'segments',
            text: 'Breakfast is served from 7:30 to 9:00.',
            question: 'canteen breakfast',
            expert: 'cli:dana',
            name: 'Dana',
          }),
        'segment',
      ],
      [
        'a retired fact',
        async () => retireFact(db, first.allFacts().find((f) => f.text.startsWith('Bicycles'))!.id, 'cli:dana'),
        'segment',
      ],
    ];
    for (const [what, change, expected] of changes) {
      const before = await served.get('segments');
      await change();
      const updated = await served.get('segments');
      expect(updated.version, what).toBe(before.version + 1);
      if (expected === 'segment') {
        // Other segments are shared with the version before, not rebuilt.
        expect(updated.bm25.segments.slice(0, before.bm25.segments.length), what).toEqual(before.bm25.segments);
        expect(updated.bm25.segments[0], what).toBe(before.bm25.segments[0]);
      } else expect(updated.bm25.segments, what).toHaveLength(1);
      const full = await cache(db).get('segments');
      expect(full.bm25.segments).toHaveLength(1);
      expect(answersOf(updated), what).toEqual(answersOf(full));
    }
    const last = await served.get('segments');
    expect(last.bm25.segments).toHaveLength(2);
    expect(last.bm25.deletedCount).toBeGreaterThan(0);
    expect(answersOf(last).evidence[0]?.[0]).toContain('https://wiki.example.com/hr/');
    expect(last.retrieve('Where do I park my bicycle?', 5).some((e) => e.text.startsWith('Bicycles'))).toBe(false);
    expect(last.retrieve('canteen breakfast', 1)[0]?.text).toBe('Breakfast is served from 7:30 to 9:00.');
  });

  it('segments merge in the background past the limit, answering as before the merge', async () => {
    const db = handle.store.db;
    const served = cache(db);
    await served.get('segments');
    const counts: number[] = [];
    for (let i = 0; i < 2 * MAX_SEGMENTS; i++) {
      await addExpertFact(db, {
        kb: 'segments',
        text: `Meeting room ${i} seats ${i + 4} people.`,
        question: `room ${i}`,
        expert: 'cli:dana',
        name: 'Dana',
      });
      const updated = await served.get('segments');
      const unmerged = answersOf(updated);
      await served.built(['segments'], 30_000);
      const settled = await served.get('segments');
      expect(settled.version).toBe(updated.version);
      expect(answersOf(settled)).toEqual(unmerged);
      counts.push(settled.bm25.segments.length);
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(MAX_SEGMENTS);
    expect(counts.some((count, i) => i > 0 && count < (counts[i - 1] as number))).toBe(true);
    expect(answersOf(await served.get('segments'))).toEqual(answersOf(await cache(db).get('segments')));
  });
});
