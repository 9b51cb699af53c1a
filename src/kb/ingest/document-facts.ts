import type { IngestLimits } from '../../config/ingest-limits.js';
import { factFileBatches, type NewFact } from './fact-lines.js';
import type { SourceDocument } from './read-sources.js';

/** A document's facts a batch at a time: from memory for a document, from its file for a .jsonl. */
export async function* factBatches(
  doc: SourceDocument,
  options: { readonly batchSize: number; readonly limits: IngestLimits },
): AsyncGenerator<readonly NewFact[]> {
  if (doc.type === 'jsonl') {
    yield* factFileBatches(doc, options.batchSize, options.limits);
    return;
  }
  for (let i = 0; i < doc.facts.length; i += options.batchSize) yield doc.facts.slice(i, i + options.batchSize);
}
