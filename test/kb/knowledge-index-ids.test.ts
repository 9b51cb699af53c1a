import { describe, expect, it } from 'vitest';

import { KnowledgeIndex } from '../../src/kb/knowledge-index.js';

describe('KnowledgeIndex.resolveExternalIds', () => {
  const fact = (id: number, externalId: string | null) => ({
    id,
    externalId,
    text: `fact ${id}`,
    heading: null,
    source: 's',
    passage: null,
    confidence: 1,
  });
  const index = new KnowledgeIndex(1, 'kb', 1, [fact(7, 'HB-1'), fact(8, null), fact(9, null)]);

  it('names a fact by its external id, or by its store id when it has none (as decisions and generated questions do)', () => {
    const { keys, unknown } = index.resolveExternalIds(['HB-1', '8', '9', '7', '99', 'nope']);
    expect([...keys]).toEqual([7, 8, 9]);
    // "7" has an external id, so only "HB-1" names it.
    expect(unknown).toEqual(['7', '99', 'nope']);
  });
});
