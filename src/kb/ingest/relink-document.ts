import { and, eq, inArray, isNull, sql } from 'drizzle-orm';

import type { IngestLimits } from '../../config/ingest-limits.js';
import type { Db } from '../../store/open-store.js';
import { documents, facts } from '../../store/schema.js';
import { factBatches } from './document-facts.js';
import type { SourceDocument } from './read-sources.js';

/**
 * Gives an unchanged document its new link, and its active facts too, except .jsonl facts with a link of
 * their own (unchanged, as their file is). How many facts it gave the link, counted in the database.
 */
export async function relink(
  tx: Db,
  { kbId, documentId, version }: { kbId: number; documentId: number; version: number },
  doc: SourceDocument,
  options: { readonly batchSize: number; readonly limits: IngestLimits },
): Promise<number> {
  await tx.update(documents).set({ url: doc.url, linkedInVersion: version }).where(eq(documents.id, documentId));
  const active = and(eq(facts.kbId, kbId), eq(facts.documentId, documentId), isNull(facts.retiredInVersion));
  if (doc.type !== 'jsonl') return relinkFacts(tx, doc.url, active);
  // The facts that follow their file's link, named a batch at a time: the file is read again, not held.
  let count = 0;
  for await (const batch of factBatches(doc, options)) {
    const ids = batch.flatMap((fact) => (fact.url === null && fact.externalId !== null ? [fact.externalId] : []));
    if (ids.length > 0) count += await relinkFacts(tx, doc.url, and(active, inArray(facts.externalId, ids)));
  }
  return count;
}

async function relinkFacts(tx: Db, url: string | null, where: ReturnType<typeof and>): Promise<number> {
  const result = await tx.execute(sql`
    with relinked as (update ${facts} set url = ${url} where ${where} returning 1)
    select count(*)::int as n from relinked`);
  return ((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) as number;
}
