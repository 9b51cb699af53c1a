import { sql } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { documents, facts, knowledgeBases } from '../store/schema.js';

export interface KbSummary {
  readonly name: string;
  readonly version: number;
  /** Active (not retired) documents and facts. */
  readonly documents: number;
  readonly facts: number;
}

/** Every knowledge base by name, with its version and active content (`candor kb list`). */
export async function listKbs(db: Db): Promise<KbSummary[]> {
  const result = await db.execute(sql`
    select kb.name, kb.current_version as version,
      (select count(*)::int from ${documents} d where d.kb_id = kb.id and d.retired_in_version is null) as documents,
      (select count(*)::int from ${facts} f where f.kb_id = kb.id and f.retired_in_version is null) as facts
    from ${knowledgeBases} kb
    order by kb.name`);
  return (result as unknown as { rows: KbSummary[] }).rows.map((row) => ({ ...row }));
}
