import { and, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';

import { groupRefusals, type GapGroup, type RefusedQuestion } from '../core/report/gap-topics.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import type { KnowledgeIndex } from '../kb/knowledge-index.js';
import type { Db } from '../store/open-store.js';
import { facts, gapMembers, gapRequests, gaps, interactions } from '../store/schema.js';
import { GAP_STATES, type GapState } from './expert-types.js';
import { askersOf } from './gap-askers.js';
import { reopenDueGaps, type ReopenReason } from './reopen-due-gaps.js';
import { FAILURE_REASONS, questionKey, syncGaps } from './sync-gaps.js';

export { FAILURE_REASONS };

export { GAP_STATES, type GapState };

/** A stored gap as the report shows it: its refusals in the window, grouped as one topic. */
export interface GapReportGroup extends GapGroup {
  /** The gap's id (`candor gaps answer ID`). */
  readonly id: number;
  readonly state: GapState;
  /** The expert fact that answers it, when answered. */
  readonly factId: number | null;
  /** The answer's text and who gave it, when answered. */
  readonly answer: { readonly text: string; readonly by: string | null; readonly at: string | null } | null;
  /** The wording experts see. */
  readonly question: string;
  /**
   * Askers: distinct chat askers (by hashed user id), and every ask that names no asker (the HTTP API's, the
   * CLI's), one each, since such asks cannot be told apart.
   */
  readonly askers: number;
  /** Of `askers`, the asks over the HTTP API or the CLI ("API"). */
  readonly apiAskers: number;
  /** "Ask an expert" presses (and automatic routings) on its refusals. */
  readonly requests: number;
  readonly firstAsked: string;
  /** Who answered it or marked it out of scope, as people read it. */
  readonly closedBy: string | null;
  readonly closedAt: string | null;
  /**
   * Why an answered gap is open again, and since when: its answer is due for re-confirmation (`factId` and
   * `answer` are that fact, no longer used) or was retired. Null when it is not.
   */
  readonly reopened: { readonly because: ReopenReason; readonly at: string | null } | null;
}

/** Gaps on one subject, for a KB owner: what to write a page about (the gaps are what experts answer one by one). */
export interface GapTopic {
  /** The topic's words, most telling first, joined: "shuttle / bus". */
  readonly topic: string;
  readonly terms: readonly string[];
  /** Refusals on it in the window (asks, repeats included). */
  readonly count: number;
  /** Distinct questions. */
  readonly questions: number;
  readonly lastAsked: string;
  /** Its gaps, the most asked first. */
  readonly gapIds: readonly number[];
}

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
  /** Gaps with refusals in the window, by state. */
  readonly states: Readonly<Record<GapState, number>>;
  /** Of the window's refusals, the share whose gap an expert has since answered. */
  readonly answeredShare: number;
  /** One per stored gap with refusals in the window: a question experts answer (its rewordings grouped). */
  readonly groups: readonly GapReportGroup[];
  /** The gaps grouped by subject (the same clustering, by topic), largest first. */
  readonly topics: readonly GapTopic[];
}

/** Refusals read from the store at most (the newest). */
const MAX_ROWS = 5000;

/**
 * What the KB could not answer lately, one group per stored gap: refusals are
 * first given their gaps (syncGaps: grouped by topic, words weighted by the
 * KB's own IDF), then each gap with refusals in the window is shown with its
 * state, askers, first and last ask, and its answer. Works on PGlite and
 * PostgreSQL alike.
 */
export async function kbGapReport(
  db: Db,
  indexes: KnowledgeIndexCache,
  options: { kb: string; days: number; now?: Date },
): Promise<GapReport> {
  const index = await indexes.get(options.kb);
  await syncGaps(db, index, options.now ? { now: options.now } : {});
  const until = options.now ?? new Date();
  await reopenDueGaps(db, index.kbId, indexes.reconfirmDays(options.kb), until);
  const since = new Date(until.getTime() - options.days * 86_400_000);
  const rows = await windowRows(db, index.kbId, since, until);
  const failures = await countFailures(db, index.kbId, since, until);
  const read = rows.slice(0, MAX_ROWS);
  const stored = await storedGaps(db, [...new Set(read.map((r) => r.gapId))]);
  const termWeight = topicTermWeight(index);
  const groups = stored.map((gap) => reportGroup(gap, read, termWeight)).sort(mostAskedFirst);
  const topics = topicsOf(read, groups, termWeight);
  const states = Object.fromEntries(GAP_STATES.map((s) => [s, groups.filter((g) => g.state === s).length])) as Record<GapState, number>;
  const answeredRefusals = groups.filter((g) => g.state === 'answered').reduce((sum, g) => sum + g.count, 0);
  return {
    kb: { name: index.name, version: index.version },
    days: options.days,
    since: since.toISOString(),
    refusals: read.length,
    distinctQuestions: new Set(read.map((r) => questionKey(r.question))).size,
    failures,
    truncated: rows.length > MAX_ROWS,
    states,
    answeredShare: read.length === 0 ? 0 : answeredRefusals / read.length,
    groups,
    topics,
  };
}

/** The window's gap members, newest first: one more than MAX_ROWS, to tell when the window held more. */
function windowRows(db: Db, kbId: number, since: Date, until: Date): Promise<WindowRow[]> {
  return (
    db
      .select({
        id: interactions.id,
        question: interactions.question,
        reason: interactions.reason,
        createdAt: interactions.createdAt,
        userHash: interactions.userHash,
        channel: interactions.channel,
        gapId: gapMembers.gapId,
      })
      .from(interactions)
      .innerJoin(gapMembers, eq(gapMembers.interactionId, interactions.id))
      // A gap's members are its refusals, and the answers an asker found not helpful and took to an expert.
      .where(and(eq(interactions.kbId, kbId), gte(interactions.createdAt, since), lte(interactions.createdAt, until)))
      .orderBy(sql`${interactions.id} desc`)
      .limit(MAX_ROWS + 1)
  );
}

/** Fail-closed refusals in the window (store or model down). */
async function countFailures(db: Db, kbId: number, since: Date, until: Date): Promise<number> {
  const [failed] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(interactions)
    .where(
      and(
        eq(interactions.kbId, kbId),
        eq(interactions.decision, 'abstain'),
        ne(interactions.channel, 'eval'),
        gte(interactions.createdAt, since),
        lte(interactions.createdAt, until),
        inArray(interactions.reason, [...FAILURE_REASONS]),
      ),
    );
  return Number(failed?.n ?? 0);
}

type StoredGap = Awaited<ReturnType<typeof storedGaps>>[number];

/** The gaps, with their answer's text and author and how many asked an expert. */
async function storedGaps(db: Db, gapIds: readonly number[]) {
  if (gapIds.length === 0) return [];
  return db
    .select({
      id: gaps.id,
      question: gaps.question,
      state: gaps.state,
      factId: gaps.factId,
      closedAt: gaps.closedAt,
      closedBy: gaps.closedBy,
      reopenedBecause: gaps.reopenedBecause,
      reopenedAt: gaps.reopenedAt,
      answer: facts.text,
      by: facts.author,
      at: facts.confirmedAt,
      requests: sql<number>`(select count(*)::int from ${gapRequests} where ${gapRequests.gapId} = ${gaps.id})`,
    })
    .from(gaps)
    .leftJoin(facts, eq(facts.id, gaps.factId))
    .where(inArray(gaps.id, [...gapIds]));
}

/** A gap as the report shows it: its refusals in the window as one topic, its askers, first ask and answer. */
function reportGroup(gap: StoredGap, read: readonly WindowRow[], termWeight: (term: string) => number): GapReportGroup {
  const mine = read.filter((r) => r.gapId === gap.id);
  const distinct = distinctQuestions(mine);
  // The gap's questions as one topic: its own words, weighted by the KB's IDF.
  const [topic] = groupRefusals([...distinct.values()], { minSimilarity: -1, termWeight });
  const { members: _members, ...group } = topic as NonNullable<typeof topic>;
  return {
    ...group,
    id: gap.id,
    state: gap.state as GapState,
    factId: gap.factId,
    answer: gap.answer === null ? null : { text: gap.answer, by: gap.by, at: gap.at ? new Date(gap.at).toISOString() : null },
    question: gap.question,
    ...askersOf(mine),
    requests: Number(gap.requests),
    firstAsked: mine.reduce((first, r) => {
      const at = new Date(r.createdAt).toISOString();
      return at < first ? at : first;
    }, group.lastAsked),
    closedBy: gap.closedBy,
    closedAt: gap.closedAt ? new Date(gap.closedAt).toISOString() : null,
    reopened: gap.state === 'open' || gap.state === 'asked' ? reopenedOf(gap.reopenedBecause, gap.reopenedAt) : null,
  };
}

function reopenedOf(because: string | null, at: Date | string | null): GapReportGroup['reopened'] {
  if (because !== 'reconfirmation_due' && because !== 'fact_retired') return null;
  return { because, at: at ? new Date(at).toISOString() : null };
}

/** Most refusals first, then most distinct questions, the latest ask, the oldest gap. */
function mostAskedFirst(a: GapReportGroup, b: GapReportGroup): number {
  return (
    b.count - a.count || b.questions - a.questions || (a.lastAsked < b.lastAsked ? 1 : a.lastAsked > b.lastAsked ? -1 : 0) || a.id - b.id
  );
}

/**
 * How much a word says about a topic: the KB's IDF of a word its documents lack, and nothing for a word
 * they hold ("office", "staff"). Two refused questions that share only words the KB already uses are about
 * different things it lacks ("a gym in the office", "a dog in the office"). Expert answers do not count as
 * holding a word: a topic experts have started to answer stays one topic.
 */
function topicTermWeight(index: KnowledgeIndex): (term: string) => number {
  const documents = index.vocabulary(index.expertFactIds);
  const all = index.vocabulary();
  return (term) => (documents.has(term) ? 0 : all.idf(term));
}

type WindowRow = {
  id: number;
  question: string;
  reason: string | null;
  createdAt: Date | string;
  userHash: string | null;
  channel: string;
  gapId: number;
};

/** One entry per question text (case, spacing and closing punctuation aside): its asks, reasons, newest ask and gaps. */
function distinctQuestions(rows: readonly WindowRow[]): Map<string, RefusedQuestion & { gapIds: Map<number, number> }> {
  const distinct = new Map<string, RefusedQuestion & { reasons: Record<string, number>; gapIds: Map<number, number> }>();
  for (const row of rows) {
    const key = questionKey(row.question);
    const entry = distinct.get(key) ?? {
      question: row.question,
      times: 0,
      reasons: {},
      lastAsked: new Date(row.createdAt).toISOString(),
      interactionId: row.id,
      gapIds: new Map<number, number>(),
    };
    (entry as { times: number }).times += 1;
    const reason = row.reason ?? 'unknown';
    entry.reasons[reason] = (entry.reasons[reason] ?? 0) + 1;
    entry.gapIds.set(row.gapId, (entry.gapIds.get(row.gapId) ?? 0) + 1);
    distinct.set(key, entry);
  }
  return distinct;
}

/** Distinct questions grouped by topic at most (the most asked). */
const MAX_DISTINCT = 400;

/** The window's questions clustered by topic; each topic lists the gaps its questions belong to. */
function topicsOf(read: readonly WindowRow[], groups: readonly GapReportGroup[], termWeight: (term: string) => number): GapTopic[] {
  const distinct = distinctQuestions(read);
  const list = [...distinct.values()].sort((a, b) => b.times - a.times).slice(0, MAX_DISTINCT);
  const order = new Map(groups.map((g, i) => [g.id, i]));
  return groupRefusals(list, { termWeight }).map((t) => {
    const ids = new Set(t.members.flatMap((i) => [...(list[i] as (typeof list)[number]).gapIds.keys()]));
    return {
      topic: t.topic,
      terms: t.terms,
      count: t.count,
      questions: t.questions,
      lastAsked: t.lastAsked,
      gapIds: [...ids].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)),
    };
  });
}
