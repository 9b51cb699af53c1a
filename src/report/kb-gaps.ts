import { and, desc, eq, gte, inArray, lte, ne, not, sql } from 'drizzle-orm';

import { groupRefusals, type GapGroup, type RefusedQuestion } from '../core/report/gap-topics.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index.js';
import type { Db } from '../store/open-store.js';
import { interactions } from '../store/schema.js';

/** Refusals that say a dependency failed, not that the KB lacks something: counted apart, never grouped. */
export const FAILURE_REASONS = ['unavailable', 'llm_unavailable', 'invalid_output'] as const;
/** Refusals read from the store at most (the newest), and distinct questions grouped at most (the most asked). */
const MAX_ROWS = 5000;
const MAX_DISTINCT = 400;

/** `candor report gaps --json` and the console's KB gaps page. */
export interface GapReport {
  readonly kb: { readonly name: string; readonly version: number };
  readonly days: number;
  /** ISO time: refusals since then are counted. */
  readonly since: string;
  /** Refusals for lack of knowledge in the window (asks, repeats included). */
  readonly refusals: number;
  readonly distinctQuestions: number;
  /** Fail-closed refusals in the window (store or model down): faults, not gaps. */
  readonly failures: number;
  /** True when the window held more refusals than were read (the newest MAX_ROWS are grouped). */
  readonly truncated: boolean;
  readonly groups: readonly GapGroup[];
}

/**
 * What the KB could not answer lately, grouped by topic so a KB owner sees what
 * to add. Words are weighted by the KB's own IDF: a word the KB lacks says most
 * about the gap. Works on PGlite and PostgreSQL alike (plain SQL, grouping in process).
 */
export async function kbGapReport(
  db: Db,
  indexes: KnowledgeIndexCache,
  options: { kb: string; days: number; now?: Date },
): Promise<GapReport> {
  const index = await indexes.get(options.kb);
  const until = options.now ?? new Date();
  const since = new Date(until.getTime() - options.days * 86_400_000);
  const window = and(
    eq(interactions.kbId, index.kbId),
    eq(interactions.decision, 'abstain'),
    ne(interactions.channel, 'eval'),
    gte(interactions.createdAt, since),
    lte(interactions.createdAt, until),
  );
  const rows = await db
    .select({ id: interactions.id, question: interactions.question, reason: interactions.reason, createdAt: interactions.createdAt })
    .from(interactions)
    .where(and(window, not(inArray(interactions.reason, [...FAILURE_REASONS]))))
    .orderBy(desc(interactions.id))
    .limit(MAX_ROWS + 1);
  const [failed] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(interactions)
    .where(and(window, inArray(interactions.reason, [...FAILURE_REASONS])));
  const read = rows.slice(0, MAX_ROWS);
  const distinct = distinctQuestions(read);
  const grouped = distinct.sort((a, b) => b.times - a.times || (a.lastAsked < b.lastAsked ? 1 : -1)).slice(0, MAX_DISTINCT);
  const vocabulary = index.vocabulary();
  return {
    kb: { name: index.name, version: index.version },
    days: options.days,
    since: since.toISOString(),
    refusals: read.length,
    distinctQuestions: distinct.length,
    failures: Number(failed?.n ?? 0),
    truncated: rows.length > MAX_ROWS,
    groups: groupRefusals(grouped, { termWeight: (term) => vocabulary.idf(term) }),
  };
}

/** One entry per question text (case, spacing and closing punctuation aside), newest wording and interaction kept. */
function distinctQuestions(rows: readonly { id: number; question: string; reason: string | null; createdAt: Date }[]): RefusedQuestion[] {
  const byText = new Map<
    string,
    { question: string; times: number; reasons: Record<string, number>; lastAsked: string; interactionId: number }
  >();
  for (const row of rows) {
    const key = row.question
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .replace(/[\s?.!]+$/, '')
      .trim();
    const entry = byText.get(key) ?? {
      question: row.question,
      times: 0,
      reasons: {},
      lastAsked: row.createdAt.toISOString(),
      interactionId: row.id,
    };
    entry.times += 1;
    const reason = row.reason ?? 'unknown';
    entry.reasons[reason] = (entry.reasons[reason] ?? 0) + 1;
    byText.set(key, entry);
  }
  return [...byText.values()];
}
