import { and, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { documents, facts } from '../store/schema.js';
import { isExpertSource } from './fact-segment.js';
import { expertTitle, type StoredFact } from './knowledge-index.js';

/** Facts read per query while an index is built. */
const FACT_PAGE = 2_000;

/** Which of a KB's facts an index reads: one version's, or what changed between two. */
export interface VersionRange {
  readonly kbId: number;
  /** The version indexed. */
  readonly version: number;
  /** The version already indexed, for a change (only the facts added since are read); null: every fact of `version`. */
  readonly since: number | null;
}

/** How expert answers due for re-confirmation are left out, and when the first one still used falls due. */
export class ExpertExpiry {
  /** When the first expert answer read falls due (ms since epoch). */
  expiresAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly days: number | undefined,
    private readonly now: number,
  ) {}

  /** The fact as an index holds it, or null when it is due for re-confirmation (not used until confirmed again). */
  use(row: StoredFact & { readonly confirmedAt: string | Date | null }): StoredFact | null {
    const { confirmedAt, ...fact } = row;
    if (confirmedAt === null || !isExpertSource(fact.source)) return fact;
    const confirmed = new Date(confirmedAt).getTime();
    const due = this.days === undefined ? Number.POSITIVE_INFINITY : confirmed + this.days * 86_400_000;
    if (due <= this.now) return null;
    this.expiresAt = Math.min(this.expiresAt, due);
    return { ...fact, title: expertTitle(new Date(confirmed)) };
  }
}

/**
 * The facts of `version` (or those it added since `since`) in id
 * order, read page by page (keyset on id) so that neither the driver nor the process holds every row at
 * once; the pages are that version's facts even if a newer version lands meanwhile.
 */
export async function* versionFacts(db: Db, range: VersionRange, expiry: ExpertExpiry): AsyncGenerator<StoredFact> {
  const { kbId, version, since } = range;
  const active = and(lte(facts.addedInVersion, version), or(isNull(facts.retiredInVersion), gt(facts.retiredInVersion, version)));
  const changed = since === null ? undefined : gt(facts.addedInVersion, since);
  let after = 0;
  for (;;) {
    const page = await readFactPage(db, and(eq(facts.kbId, kbId), gt(facts.id, after), active, changed) as SQL);
    for (const row of page) {
      const fact = expiry.use(row);
      if (fact) yield fact;
    }
    if (page.length < FACT_PAGE) return;
    after = (page[page.length - 1] as { id: number }).id;
  }
}

/** Store ids of the facts `since` held that `version` retired. */
export async function factsRetiredSince(db: Db, { kbId, version, since }: VersionRange & { readonly since: number }): Promise<number[]> {
  const rows = await db
    .select({ id: facts.id })
    .from(facts)
    .where(
      and(eq(facts.kbId, kbId), lte(facts.addedInVersion, since), gt(facts.retiredInVersion, since), lte(facts.retiredInVersion, version)),
    )
    .orderBy(facts.id);
  return rows.map((row) => row.id);
}

/**
 * Whether a document of the KB was given a new link after `since` (up to `version`): its facts changed in place,
 * so the version is indexed in full (a re-linked fact must keep its place among the others).
 */
export async function relinkedSince(db: Db, { kbId, version, since }: VersionRange & { readonly since: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.kbId, kbId), gt(documents.linkedInVersion, since), lte(documents.linkedInVersion, version)))
    .limit(1);
  return row !== undefined;
}

/** One page of facts matching `where`, in id order. */
function readFactPage(db: Db, where: SQL) {
  return db
    .select({
      id: facts.id,
      externalId: facts.externalId,
      text: facts.text,
      heading: facts.heading,
      documentPath: sql<string | null>`case when ${facts.externalId} is null then ${documents.path} end`,
      source: facts.source,
      passage: facts.passage,
      confidence: facts.confidence,
      url: facts.url,
      title: sql<string | null>`case when ${facts.externalId} is null then ${documents.title} end`,
      alias: facts.alias,
      confirmedAt: facts.confirmedAt,
    })
    .from(facts)
    .innerJoin(documents, eq(documents.id, facts.documentId))
    .where(where)
    .orderBy(facts.id)
    .limit(FACT_PAGE);
}
