import { parentPort } from 'node:worker_threads';

import { Bm25Builder, type Bm25Arrays } from '../core/retrieval/bm25-builder.js';
import { indexable } from './segment-build.js';
import type { SegmentWorkerReply, SegmentWorkerRequest } from './segment-in-worker.js';

// The worker thread segment-in-worker.ts starts for one segment: it indexes the facts it is sent, batch by
// batch, and on `seal` hands the segment's typed arrays back without copying them (their buffers are
// transferred), so no index work runs on the thread that answers requests.
const port = parentPort;
const builder = new Bm25Builder();
port?.on('message', (request: SegmentWorkerRequest) => {
  try {
    if (request.kind === 'facts') {
      for (const fact of request.facts) builder.add(indexable(fact));
      return;
    }
    const sealing = builder.seal(request.params);
    let sealed = sealing.next();
    while (!sealed.done) sealed = sealing.next();
    const arrays = sealed.value;
    const reply: SegmentWorkerReply = { kind: 'sealed', arrays };
    port.postMessage(reply, transferables(arrays));
  } catch (error) {
    const reply: SegmentWorkerReply = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});

/** The buffers behind a segment's arrays, each once. */
function transferables(arrays: Bm25Arrays): ArrayBuffer[] {
  const views = [
    arrays.terms.bytes,
    arrays.terms.offsets,
    arrays.terms.slots,
    arrays.keys,
    arrays.factTerms,
    arrays.factStart,
    arrays.postingStart,
    arrays.postingFacts,
    arrays.postingTfs,
    arrays.lengths,
    arrays.termBound,
  ];
  return [...new Set(views.map((view) => view.buffer as ArrayBuffer))];
}
