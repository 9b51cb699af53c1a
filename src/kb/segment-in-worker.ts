import { Worker } from 'node:worker_threads';

import type { Bm25Arrays, Bm25Params } from '../core/retrieval/bm25-builder.js';
import { Bm25Segment } from '../core/retrieval/bm25-segment.js';
import { CollectedFacts, type FactSegment } from './fact-segment.js';
import type { StoredFact } from './fact-table.js';
import { workerUrl } from './worker-url.js';

/** What the lexical index reads of a fact (see indexable): sent to the worker, batch by batch. */
export type WorkerFact = Pick<StoredFact, 'id' | 'text' | 'heading' | 'documentPath' | 'alias'>;

export type SegmentWorkerRequest =
  { readonly kind: 'facts'; readonly facts: readonly WorkerFact[] } | { readonly kind: 'seal'; readonly params: Bm25Params };

export type SegmentWorkerReply =
  { readonly kind: 'sealed'; readonly arrays: Bm25Arrays } | { readonly kind: 'failed'; readonly message: string };

/** Facts sent to the worker per message. */
const BATCH = 1_000;

/**
 * A segment of these rows with its BM25 part built in a worker thread: this thread keeps the fact table (the
 * rows are here already) and sends each batch of facts on, awaiting `pause` after each batch; the worker
 * tokenises, interns and seals, and hands the typed arrays back without copying. One worker per segment,
 * stopped once it is done; a worker that fails or exits fails the build (the index in use stays).
 */
export async function buildSegmentInWorker(
  rows: Iterable<StoredFact> | AsyncIterable<StoredFact>,
  options: { readonly pause: () => Promise<void>; readonly params: Bm25Params },
): Promise<{ readonly facts: FactSegment; readonly bm25: Bm25Segment }> {
  const worker = new Worker(await workerUrl('segment-worker'), { execArgv: [] });
  const sealed = new Promise<Bm25Arrays>((resolve, reject) => {
    worker.once('message', (reply: SegmentWorkerReply) =>
      reply.kind === 'sealed' ? resolve(reply.arrays) : reject(new Error(`building an index segment failed: ${reply.message}`)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index worker stopped unexpectedly (exit code ${code})`)));
  });
  sealed.catch(() => undefined); // awaited below; a failure while facts are still being sent must not go unhandled
  try {
    const collected = new CollectedFacts();
    let batch: WorkerFact[] = [];
    const send = (request: SegmentWorkerRequest) => worker.postMessage(request);
    for await (const row of rows) {
      collected.add(row);
      batch.push({ id: row.id, text: row.text, heading: row.heading, documentPath: row.documentPath ?? null, alias: row.alias ?? null });
      if (batch.length === BATCH) {
        send({ kind: 'facts', facts: batch });
        batch = [];
        await options.pause();
      }
    }
    if (batch.length > 0) send({ kind: 'facts', facts: batch });
    await options.pause();
    send({ kind: 'seal', params: options.params });
    const arrays = await sealed;
    return { facts: collected.seal(), bm25: new Bm25Segment(arrays) };
  } finally {
    void worker.terminate();
  }
}
