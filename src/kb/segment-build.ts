import { basename } from 'node:path';

import type { IndexableFact } from '../core/retrieval/bm25-builder.js';
import { DEFAULT_BM25_PARAMS } from '../core/retrieval/bm25-index.js';
import { Bm25Segment } from '../core/retrieval/bm25-segment.js';
import { identifierTags } from '../core/text/analyse-question.js';
import { CollectedFacts, type FactSegment } from './fact-segment.js';
import type { StoredFact } from './fact-table.js';
import { buildSegmentInWorker } from './segment-in-worker.js';

/** How a build yields: `pause` between slices of at most `sliceSize` facts; in a worker thread when `offThread`. */
export interface Slicing {
  readonly pause: () => Promise<void>;
  readonly sliceSize?: number | undefined;
  readonly offThread?: boolean | undefined;
  /** Off-thread, segments of at most this many facts are still built here. @default INLINE_FACTS */
  readonly inlineFacts?: number | undefined;
  /** Off-thread, the worker also stores the segment in a file (see segment-file.ts): a fresh path for a KB's segment. */
  readonly snapshotPath?: ((kbId: number) => string) | undefined;
}

/** Segments of fewer facts are built here even off-thread: starting a worker costs more than they do. */
export const INLINE_FACTS = 2_000;

/**
 * A segment of these rows (facts and BM25): its BM25 part built in a worker thread (`offThread`, for more
 * than INLINE_FACTS facts), or here a slice at a time with `pause` between slices.
 */
export async function buildSegment(
  rows: Iterable<StoredFact> | AsyncIterable<StoredFact>,
  slicing: Slicing,
  kbId?: number,
): Promise<BuiltSegment> {
  if (!slicing.offThread) return buildHere(rows, slicing);
  const iterator = toAsync(rows)[Symbol.asyncIterator]();
  const first: StoredFact[] = [];
  for (let next = await iterator.next(); ; next = await iterator.next()) {
    if (next.done) return buildHere(first, slicing);
    first.push(next.value);
    if (first.length > (slicing.inlineFacts ?? INLINE_FACTS)) break;
  }
  const all = (async function* () {
    yield* first;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  const snapshot = slicing.snapshotPath && kbId !== undefined ? { path: slicing.snapshotPath(kbId), kbId } : null;
  const built = await buildSegmentInWorker(all, { pause: slicing.pause, params: DEFAULT_BM25_PARAMS, snapshot });
  if (built.file) built.facts.storedIn = basename(built.file);
  return built;
}

async function* toAsync<T>(items: Iterable<T> | AsyncIterable<T>): AsyncGenerator<T> {
  yield* items;
}

/** A segment's facts and BM25 part, and the file the worker stored it in (null: none). */
export interface BuiltSegment {
  readonly facts: FactSegment;
  readonly bm25: Bm25Segment;
  readonly file?: string | null;
}

/** A segment built on this thread, a slice at a time. */
async function buildHere(rows: Iterable<StoredFact> | AsyncIterable<StoredFact>, slicing: Slicing): Promise<BuiltSegment> {
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
export function indexable(row: Pick<StoredFact, 'id' | 'text' | 'heading' | 'documentPath' | 'alias'>): IndexableFact {
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
