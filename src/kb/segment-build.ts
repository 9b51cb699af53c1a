import type { IndexableFact } from '../core/retrieval/bm25-builder.js';
import { DEFAULT_BM25_PARAMS } from '../core/retrieval/bm25-index.js';
import { Bm25Segment } from '../core/retrieval/bm25-segment.js';
import { identifierTags } from '../core/text/analyse-question.js';
import { CollectedFacts, type FactSegment } from './fact-segment.js';
import type { StoredFact } from './fact-table.js';

/** How a build yields: `pause` between slices of at most `sliceSize` facts. */
export interface Slicing {
  readonly pause: () => Promise<void>;
  readonly sliceSize?: number | undefined;
}

/** A segment of these rows (facts and BM25), built a slice at a time with `pause` between slices. */
export async function buildSegment(
  rows: Iterable<StoredFact> | AsyncIterable<StoredFact>,
  slicing: Slicing,
): Promise<{ readonly facts: FactSegment; readonly bm25: Bm25Segment }> {
  const collected = new CollectedFacts();
  const bm25 = await Bm25Segment.build(
    (async function* () {
      for await (const row of rows) {
        collected.add(row);
        yield indexable(row);
      }
    })(),
    { pause: slicing.pause, params: DEFAULT_BM25_PARAMS, ...(slicing.sliceSize ? { sliceSize: slicing.sliceSize } : {}) },
  );
  return { facts: collected.seal(), bm25 };
}

/** A stored fact as the lexical index reads it: its text, its search context and its identifier tags. */
export function indexable(row: StoredFact): IndexableFact {
  return { key: row.id, text: row.text, context: searchContext(row), tags: identifierTags(row.text) };
}

/**
 * What a fact is searched with besides its text: its document's folder and file
 * names (an organisation's "hr/leave-policy.md" names its subject, as a URL does
 * for a web page; numbers and extensions dropped) and its heading path.
 * Ready-made (.jsonl) facts have no document path: their heading alone.
 */
export function searchContext(fact: Pick<StoredFact, 'heading' | 'documentPath' | 'alias'>): string | null {
  const pathWords = (fact.documentPath ?? '')
    .replace(/\.[A-Za-z0-9]+$/, '')
    .split(/[\/_\-.\s]+/)
    .filter((word) => word !== '' && !/^\d+$/.test(word))
    .join(' ');
  const parts = [pathWords, fact.heading ?? '', fact.alias ?? ''].filter((part) => part !== '');
  return parts.length === 0 ? null : parts.join(' › ');
}
