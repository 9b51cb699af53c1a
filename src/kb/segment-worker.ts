import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

import { Bm25Builder, type Bm25Arrays } from '../core/retrieval/bm25-builder.js';
import { CollectedFacts } from './fact-segment.js';
import { indexable } from './segment-build.js';
import { segmentFileBytes } from './segment-file.js';
import type { SegmentWorkerData, SegmentWorkerReply, SegmentWorkerRequest } from './segment-in-worker.js';

// The worker thread segment-in-worker.ts starts for one segment: it indexes the facts it is sent, batch by
// batch, and on `seal` writes the segment's file (when started with a snapshot path) and hands the segment's
// typed arrays back without copying them (their buffers are transferred), so no index work runs on the
// thread that answers requests.
const port = parentPort;
const { snapshot } = workerData as SegmentWorkerData;
const builder = new Bm25Builder();
// With a snapshot path, the facts are collected here too (typed columns), for the segment's file.
const collected = snapshot ? new CollectedFacts() : null;
port?.on('message', (request: SegmentWorkerRequest) => {
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
    const file =
      snapshot && collected ? store(snapshot.path, segmentFileBytes({ kbId: snapshot.kbId, facts: collected.seal(), arrays })) : null;
    const reply: SegmentWorkerReply = { kind: 'sealed', arrays, file };
    port.postMessage(reply, transferables(arrays));
  } catch (error) {
    const reply: SegmentWorkerReply = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});

/** Writes the parts to a temporary file, flushed, renamed over `path`; the path written. */
function store(path: string, parts: readonly Uint8Array[]): string {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    for (const part of parts) writeSync(fd, part);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  return path;
}

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
