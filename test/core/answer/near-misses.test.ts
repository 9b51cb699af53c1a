import { describe, expect, it } from 'vitest';

import { nearMisses } from '../../../src/core/answer/near-misses.js';
import { identifierTags } from '../../../src/core/text/analyse-question.js';
import { fact, input } from '../gate/fixtures.js';

describe('nearMisses: what a refusal retrieved, and why each fact fell short', () => {
  const kb = [
    'Staff parking permits cost $45 per month and are renewed every January.',
    'Parking bays beside the north gate are reserved for visitors.',
    'ADR-0049 records the choice of the parking operator.',
  ];

  it('keeps the best five in retrieval order, with scores, coverage and the question words each lacks', () => {
    const ranked = [fact(kb[1]!, 0.8, 1), fact(kb[0]!, 0.6, 2), ...[3, 4, 5, 6].map((i) => fact(`Parking rule ${i}.`, 0.1, i))];
    const misses = nearMisses(input('How much does visitor parking cost at night?', ranked, kb));
    expect(misses.map((m) => m.factId)).toEqual(['1', '2', '3', '4', '5']);
    expect(misses[0]).toMatchObject({ score: 0.8, similarity: 0.8, confidence: 1, source: 'doc#1' });
    expect(misses[0]!.missing).toEqual(expect.arrayContaining(['cost', 'night']));
    expect(misses[0]!.why).toContain('states no amount, though the question asks how much');
    // "How much" frames the question (it asks for an amount): "much" is never a word the fact should mention.
    expect(misses[1]!.why).toEqual(['does not mention "visitor" or "night"']);
    expect(misses.slice(0, 2).map((m) => m.covers)).toEqual([0.5, 0.5]); // two of the question's four words each
  });

  it('says when a fact does not name the identifier asked about, shares no word, is a fragment or is doubtful', () => {
    const adr = { ...fact(kb[2]!, 0.7, 1), terms: new Set([...fact(kb[2]!, 0.7, 1).terms, ...identifierTags(kb[2]!)]) };
    const [one] = nearMisses(input('What does ADR-0050 say about parking?', [adr], kb));
    expect(one!.why[0]).toBe('does not name "ADR-0050"');
    const [none] = nearMisses(input('Is there a shuttle bus?', [fact('Cafeteria hours.', 0.2, 9)], kb));
    expect(none!.why).toEqual(['shares no content word with the question', 'a heading or fragment, not a statement']);
    const [doubtful] = nearMisses(input('When are parking permits renewed?', [{ ...fact(kb[0]!, 0.5, 2), confidence: 0.5 }], kb));
    expect(doubtful!.why).toEqual(['its confidence is low (0.5)']);
  });

  it('is empty when nothing was retrieved', () => {
    expect(nearMisses(input('Anything at all?', [], kb))).toEqual([]);
  });
});
