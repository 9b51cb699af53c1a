import { parentPort, workerData } from 'node:worker_threads';

import { Bm25Builder, type Bm25Arrays } from '../core/retrieval/bm25-builder.js';
import { CollectedFacts } from './fact-segment.js';
import { indexable } from './segment-build.js';
import { segmentFileBytes } from './segment-file.js';
import type { SegmentWorkerData, SegmentWorkerReply, SegmentWorkerRequest } from './segment-in-worker.js';
import { writeAtomically } from './write-atomically.js';

// The worker thread segment-in-worker.ts starts for one segment: it indexes the facts it is sent, batch by
// batch, and on `seal` writes the segment's file (when started with a snapshot path) and hands the segment's
// typed arrays back without copying them (their buffers are transferred), so no index work runs on the
// thread that answers requests.
const port = parentPort;
const { snapshot } = workerData as SegmentWorkerData;
const builder = new Bm25Builder();
// With a snapshot path, the facts are collected here too (typed columns), for the segment's file.
const collected = snapshot ? new CollectedFacts() : null;
port?.on('message', async (request: SegmentWorkerRequest) => {
  try {
    if (request.kind === 'facts') {
      for (const fact of request.facts) builder.add(indexable(fact));
      if (collected) for (const fact of request.facts) collected.add(fact);
      return;
    }
    const sealing = builder.seal(request.params);
    let sealed = sealing.next();
    while (!sealed.done) sealed = sealing.next();
    const arrays = sealed.value;
    if (snapshot && collected)
      await writeAtomically(snapshot.path, segmentFileBytes({ kbId: snapshot.kbId, facts: collected.seal(), arrays }));
    const file = snapshot?.path ?? null;
    const reply: SegmentWorkerReply = { kind: 'sealed', arrays, file };
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
