import { and, eq } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { kbVersions, knowledgeBases } from '../store/schema.js';

/**
 * What names a KB version in one database's history: when the KB was created, and the version's own row (id and
 * time). A snapshot is trusted only for the same stamp: another database (a fresh one reuses KB ids and version
 * numbers) or a history restored from a backup and continued differently gives another stamp. Null: the KB or
 * the version is not in this database (version 0, before anything was stored, has the KB's stamp alone).
 */
export async function versionStamp(db: Db, kbId: number, version: number): Promise<string | null> {
  const [kb] = await db.select({ createdAt: knowledgeBases.createdAt }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
  if (!kb) return null;
  const created = new Date(kb.createdAt).toISOString();
  if (version === 0) return `kb ${kbId} ${created}`;
  const [row] = await db
    .select({ id: kbVersions.id, createdAt: kbVersions.createdAt })
    .from(kbVersions)
    .where(and(eq(kbVersions.kbId, kbId), eq(kbVersions.version, version)));
  return row ? `kb ${kbId} ${created}; version ${version} row ${row.id} ${new Date(row.createdAt).toISOString()}` : null;
}
