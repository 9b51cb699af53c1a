import { Worker } from 'node:worker_threads';

import { describeLimit, formatBytes, type IngestLimits } from '../../config/ingest-limits.js';
import type { BinaryFormat, BinaryParse } from '../parse/parse-binary.js';
import { parseWorkerUrl } from '../worker-url.js';

/** What the worker is given: the file's bytes (transferred, not copied) and the limits it checks itself. */
export interface ParseJob {
  readonly bytes: Uint8Array;
  readonly format: BinaryFormat;
  readonly limits: Pick<IngestLimits, 'maxDocxBytes' | 'maxPdfPages'>;
}

/** What the worker says: its reader is loaded, or the document's result. */
type WorkerMessage = { readonly kind: 'ready' } | { readonly kind: 'result'; readonly result: BinaryParse };

const MiB = 1024 * 1024;
/** How often memory is looked at; zlib inflates some hundreds of MB a second, so the overshoot is a few MB. */
const WATCH_MS = 10;
/** Free memory left alone when the machine or container has less free than the limit allows. */
const HEADROOM_BYTES = 64 * MiB;
/** Heap the worker may hold beyond the limit: the reader's own code. Growth past the limit is stopped by the watch. */
const READER_HEAP_MB = 256;

/**
 * Parses a PDF or .docx in a worker thread, stopped when the process's resident memory grows by more than
 * the limit while it reads (or by more than the machine or container has free), or when it runs out of time;
 * the file then fails alone, with the limit named. pdf.js cannot bound what a content stream inflates to, and
 * mammoth holds a whole document in memory: a decompression bomb, or a document too large to read, costs at
 * most the limit (plus the few MB read between two looks). The library is loaded before the watch starts.
 * One worker per file: a worker that was stopped leaves nothing behind. The watch measures the whole process,
 * so files are read one at a time (as ingestPaths does).
 */
export async function parseInWorker(bytes: Uint8Array, format: BinaryFormat, limits: IngestLimits): Promise<BinaryParse> {
  const url = await parseWorkerUrl();
  const budget = memoryBudget(limits.maxParseMb);
  const copy = new Uint8Array(bytes);
  const job: ParseJob = { bytes: copy, format, limits: { maxDocxBytes: limits.maxDocxBytes, maxPdfPages: limits.maxPdfPages } };
  const worker = new Worker(url, {
    workerData: job,
    transferList: [copy.buffer],
    resourceLimits: { maxOldGenerationSizeMb: Math.ceil(budget.bytes / MiB) + READER_HEAP_MB },
    execArgv: [],
  });
  return new Promise((resolve) => {
    let settled = false;
    let watch: NodeJS.Timeout | undefined;
    const finish = (result: BinaryParse): void => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      clearTimeout(timer);
      void worker.terminate().finally(() => resolve(result));
    };
    const fail = (reason: string): void => finish({ ok: false, skipped: false, reason });
    const timer = setTimeout(() => {
      fail(`reading it took longer than ${describeLimit('parseTimeoutMs', limits.parseTimeoutMs, `${limits.parseTimeoutMs / 1000} s`)}`);
    }, limits.parseTimeoutMs);
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'result') return finish(message.result);
      const baseline = process.memoryUsage.rss();
      watch = setInterval(() => {
        if (process.memoryUsage.rss() - baseline > budget.bytes) fail(overMemory(budget, limits));
      }, WATCH_MS);
      worker.postMessage('go');
    });
    worker.on('error', (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? overMemory(budget, limits) : error.message),
    );
    worker.on('exit', (code) => fail(`the reader stopped unexpectedly (exit code ${code})`));
  });
}

interface Budget {
  readonly bytes: number;
  /** Less than the limit: all the machine or container had free. */
  readonly byFreeMemory: boolean;
}

function memoryBudget(maxParseMb: number): Budget {
  const free = process.availableMemory() - HEADROOM_BYTES;
  if (free >= maxParseMb * MiB) return { bytes: maxParseMb * MiB, byFreeMemory: false };
  return { bytes: Math.max(free, 16 * MiB), byFreeMemory: true };
}

function overMemory(budget: Budget, limits: IngestLimits): string {
  const limit = describeLimit('maxParseMb', limits.maxParseMb, `${limits.maxParseMb} MiB`);
  const bound = budget.byFreeMemory ? `the ${formatBytes(budget.bytes)} the machine had free (below ${limit})` : limit;
  return `reading it needed more memory than ${bound}: a decompression bomb, or a document too large to read within the limit`;
}
