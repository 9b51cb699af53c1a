import { sql, type SQL } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { interactions, knowledgeBases } from '../store/schema.js';

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Interactions of the knowledge base named `name`. */
export function kbIs(name: string): SQL {
  return sql`${interactions.kbId} in (select ${knowledgeBases.id} from ${knowledgeBases} where ${knowledgeBases.name} = ${name})`;
}

/**
 * A case-insensitive "contains" pattern for LIKE/ILIKE: the text's own `\`, `%` and `_` are escaped (LIKE's
 * default escape character is the backslash), so a search for "50%" finds "50%", not "50" followed by anything.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
