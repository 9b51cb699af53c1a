import { parentPort, workerData } from 'node:worker_threads';

import { loadReader, parseBinaryDocument } from '../parse/parse-binary.js';
import type { ParseJob } from './parse-in-worker.js';

// The worker thread parse-in-worker.ts starts for one PDF or .docx: it loads the reader, says so, and parses
// when told to, so that the memory the library takes is not counted against the document.
const job = workerData as ParseJob;
const port = parentPort;
await loadReader(job.format);
port?.once('message', () => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  void parseBinaryDocument(bytes, job.format, job.limits).then((result) => port.postMessage({ kind: 'result', result }));
});
port?.postMessage({ kind: 'ready' });
