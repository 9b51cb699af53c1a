import { Worker } from 'node:worker_threads';

import type { Bm25Arrays, Bm25Params } from '../core/retrieval/bm25-builder.js';
import { Bm25Segment } from '../core/retrieval/bm25-segment.js';
import { CollectedFacts, type FactSegment } from './fact-segment.js';
import type { StoredFact } from './fact-table.js';
import { workerUrl } from './worker-url.js';

export type SegmentWorkerRequest =
  { readonly kind: 'facts'; readonly facts: readonly StoredFact[] } | { readonly kind: 'seal'; readonly params: Bm25Params };

export type SegmentWorkerReply =
  | { readonly kind: 'sealed'; readonly arrays: Bm25Arrays; readonly file: string | null }
  | { readonly kind: 'failed'; readonly message: string };

/** What the worker is started with: where to store the segment once built (see segment-file.ts), if anywhere. */
export interface SegmentWorkerData {
  readonly snapshot: { readonly path: string; readonly kbId: number } | null;
}

/** Facts sent to the worker per message. */
const BATCH = 1_000;

/**
 * A segment of these rows with its BM25 part built in a worker thread: this thread keeps the fact table (the
 * rows are here already) and sends each batch of facts on, awaiting `pause` after each batch; the worker
 * tokenises, interns and seals, writes the segment's file when given a `snapshot` path (the serialising and
 * hashing stay off this thread too), and hands the typed arrays back without copying. One worker per segment,
 * stopped once it is done; a worker that fails or exits fails the build (the index in use stays).
 */
export async function buildSegmentInWorker(
  rows: Iterable<StoredFact> | AsyncIterable<StoredFact>,
  options: { readonly pause: () => Promise<void>; readonly params: Bm25Params; readonly snapshot?: SegmentWorkerData['snapshot'] },
): Promise<{ readonly facts: FactSegment; readonly bm25: Bm25Segment; readonly file: string | null }> {
  const workerData: SegmentWorkerData = { snapshot: options.snapshot ?? null };
  const worker = new Worker(await workerUrl('segment-worker'), { execArgv: [], workerData });
  const sealed = new Promise<{ arrays: Bm25Arrays; file: string | null }>((resolve, reject) => {
    worker.once('message', (reply: SegmentWorkerReply) =>
      reply.kind === 'sealed' ? resolve(reply) : reject(new Error(`building an index segment failed: ${reply.message}`)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index worker stopped unexpectedly (exit code ${code})`)));
  });
  sealed.catch(() => undefined); // awaited below; a failure while facts are still being sent must not go unhandled
  try {
    const collected = new CollectedFacts();
    let batch: StoredFact[] = [];
    const send = (request: SegmentWorkerRequest) => worker.postMessage(request);
    for await (const row of rows) {
      collected.add(row);
      batch.push(row);
      if (batch.length === BATCH) {
        send({ kind: 'facts', facts: batch });
        batch = [];
        await options.pause();
      }
    }
    if (batch.length > 0) send({ kind: 'facts', facts: batch });
    await options.pause();
    send({ kind: 'seal', params: options.params });
    const { arrays, file } = await sealed;
    return { facts: collected.seal(), bm25: new Bm25Segment(arrays), file };
  } finally {
    void worker.terminate();
  }
}
