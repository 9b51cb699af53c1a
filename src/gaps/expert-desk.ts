import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';

import { isListedExpert, type ExpertsEntry } from '../config/experts-setting.js';
import { checkedAnswerText } from '../kb/expert-answer-text.js';
import { addExpertFact } from '../kb/expert-facts.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { CandorError, describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { facts, gapMembers, gapRequests, gaps, interactions, knowledgeBases } from '../store/schema.js';
import { instruments } from '../telemetry/instruments.js';
import { actionKey, actionValue, readActionValue } from './action-token.js';
import type { CloseOutcome, ExpertCard, ExpertDesk, ExpertSurface, GapState, Person } from './expert-types.js';
import { noticeText, readCard, readGap, type GapRow } from './gap-reads.js';
import { questionKey, syncGaps } from './sync-gaps.js';

export interface ExpertDeskDeps {
  readonly db: Db;
  readonly indexes: KnowledgeIndexCache;
  readonly experts: readonly ExpertsEntry[];
  /** The deployment's secret (CANDOR_USER_HASH_SALT): signs button values. */
  readonly secret: string;
  readonly log: Log;
  readonly now?: () => Date;
}

/** A replica posting a gap holds it this long; after that another may post it. */
const POST_CLAIM_MS = 60_000;

/**
 * The experts desk, over the store: every step is a row (a request, a post
 * ref, a fact, a notice sent), so a restart loses nothing and repeats nothing;
 * channels only render and transport. Both Slack and Teams call it, and the
 * CLI for experts without chat.
 */
export function createExpertDesk(deps: ExpertDeskDeps): ExpertDesk {
  const { db, log } = deps;
  const now = deps.now ?? (() => new Date());
  const key = actionKey(deps.secret);
  const surfaces = new Map<string, ExpertSurface>();
  const entryOf = (kb: string) => deps.experts.find((e) => e.kb === kb);

  async function isExpertOf(entry: ExpertsEntry, person: Person): Promise<boolean> {
    if (isListedExpert(entry.people, person.platform, person.user)) return true;
    if (person.platform === 'cli') return false;
    const surface = surfaces.get(person.platform);
    return (await surface?.isGroupMember?.(entry.people, person.user).catch(() => false)) ?? false;
  }

  /** A gap as its experts' post shows it (and where it was posted), or null when there is none. */
  async function shownGap(gapId: number) {
    const gap = await readGap(db, gapId);
    return gap ? { gap, card: await readCard(db, deps.indexes, gap, actionValue(key, 'gap', gapId), log) } : null;
  }

  /** Posts a gap to its KB's experts on every attached channel with a place for it, once (a claim decides). */
  async function post(gapId: number): Promise<ExpertCard | null> {
    const claimed = await db
      .update(gaps)
      .set({ postClaimedAt: now() })
      .where(
        and(
          eq(gaps.id, gapId),
          eq(gaps.state, 'asked'),
          sql`${gaps.posts} = '[]'::jsonb`,
          or(isNull(gaps.postClaimedAt), lt(gaps.postClaimedAt, new Date(now().getTime() - POST_CLAIM_MS))),
        ),
      )
      .returning({ id: gaps.id });
    if (claimed.length === 0) return null;
    const shown = (await shownGap(gapId))?.card;
    const entry = shown && entryOf(shown.kb);
    const refs: string[] = [];
    if (shown && entry) {
      for (const surface of surfaces.values()) {
        try {
          const ref = await surface.post(entry, shown);
          if (ref !== null) refs.push(ref);
        } catch (error) {
          log('error', `${surface.platform}: could not post a question to experts`, { gapId, error: describeError(error) });
        }
      }
    }
    await db
      .update(gaps)
      .set({ posts: refs, postClaimedAt: refs.length > 0 ? now() : null })
      .where(eq(gaps.id, gapId));
    if (refs.length > 0) log('info', 'experts: question posted', { gapId, posts: refs.length });
    return refs.length > 0 ? (shown ?? null) : null;
  }

  /** Re-renders a gap's posts (best effort: a post that cannot be updated stays as it was); returns what they show. */
  async function refresh(gapId: number): Promise<ExpertCard | null> {
    const shown = await shownGap(gapId);
    if (!shown) return null;
    for (const ref of shown.gap.posts) {
      const surface = surfaces.get(ref.split(':')[0] ?? '');
      await surface?.update(ref, shown.card).catch((error: unknown) => {
        log('warn', `${surface.platform}: could not update an experts' post`, { gapId, error: describeError(error) });
      });
    }
    return shown.card;
  }

  /** Tells the askers of closed gaps (once each: the notice is claimed before it is sent). */
  async function tellAskers(gapIds?: readonly number[]): Promise<number> {
    const pending = await db
      .select({ id: gapRequests.id, gapId: gapRequests.gapId, target: gapRequests.target, state: gaps.state, question: gaps.question })
      .from(gapRequests)
      .innerJoin(gaps, eq(gaps.id, gapRequests.gapId))
      .where(
        and(
          isNull(gapRequests.notifiedAt),
          isNotNull(gapRequests.target),
          inArray(gaps.state, ['answered', 'out_of_scope']),
          gapIds ? inArray(gapRequests.gapId, [...gapIds]) : sql`true`,
        ),
      )
      .limit(200);
    let told = 0;
    for (const request of pending) {
      const target = request.target as Record<string, unknown>;
      const surface = surfaces.get(String(target.platform));
      if (!surface) continue; // this process has no channel for it (the CLI): the server tells them
      const claimed = await db
        .update(gapRequests)
        .set({ notifiedAt: now() })
        .where(and(eq(gapRequests.id, request.id), isNull(gapRequests.notifiedAt)))
        .returning({ id: gapRequests.id });
      if (claimed.length === 0) continue;
      const text = await noticeText(db, request.gapId, request.state as GapState, request.question);
      try {
        await surface.tell(target, text);
        told += 1;
      } catch (error) {
        // Told at most once: a notice that failed is logged, not repeated into a thread that may have got it.
        log('warn', `${surface.platform}: could not tell an asker about their question`, {
          gapId: request.gapId,
          error: describeError(error),
        });
      }
    }
    return told;
  }

  async function close(gapId: number, expert: Person, apply: (t: Db, gap: GapRow) => Promise<CloseOutcome>): Promise<CloseOutcome> {
    const gap = await readGap(db, gapId);
    if (!gap) return { kind: 'no_gap' };
    const entry = entryOf(gap.kb);
    if (!entry || !(await isExpertOf(entry, expert))) return { kind: 'not_an_expert' };
    const outcome = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const [locked] = await t.select({ state: gaps.state, closedBy: gaps.closedBy }).from(gaps).where(eq(gaps.id, gapId)).for('update');
      if (locked && (locked.state === 'answered' || locked.state === 'out_of_scope'))
        return { kind: 'already_closed' as const, gapId, state: locked.state as GapState, by: locked.closedBy };
      return apply(t, gap);
    });
    if (outcome.kind === 'answered' || outcome.kind === 'dismissed') {
      const started = gap.askedAt ?? gap.createdAt;
      instruments.expertAnswerTime().record(Math.max(0, (now().getTime() - new Date(started).getTime()) / 1000), {
        kb: gap.kb,
        outcome: outcome.kind,
      });
      log('info', 'experts: gap closed', { gapId, outcome: outcome.kind, by: `${expert.platform}:${expert.user}` });
      await refresh(gapId);
      await tellAskers([gapId]).catch((error: unknown) =>
        log('warn', 'experts: could not tell askers', { gapId, error: describeError(error) }),
      );
    }
    return outcome;
  }

  const who = (expert: Person) => expert.name?.trim() || expert.user;

  return {
    entry: entryOf,
    attach(surface) {
      surfaces.set(surface.platform, surface);
    },
    interactionAction: (id) => actionValue(key, 'interaction', id),
    readInteractionAction: (value) => readActionValue(key, 'interaction', value),
    readGapAction: (value) => readActionValue(key, 'gap', value),
    card: async (gapId) => (await shownGap(gapId))?.card ?? null,

    async askExpert(request) {
      const [interaction] = await db
        .select({
          id: interactions.id,
          kbId: interactions.kbId,
          kb: knowledgeBases.name,
          question: interactions.question,
          decision: interactions.decision,
        })
        .from(interactions)
        .innerJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
        .where(eq(interactions.id, request.interactionId));
      if (!interaction || interaction.decision === null || interaction.kbId === null) return { kind: 'no_interaction' };
      const entry = entryOf(interaction.kb);
      if (!entry) return { kind: 'no_experts' };
      const index = await deps.indexes.get(interaction.kb);
      await syncGaps(db, index, { now: now() });
      const gapId = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [member] = await t.select({ gapId: gapMembers.gapId }).from(gapMembers).where(eq(gapMembers.interactionId, interaction.id));
        if (member) return member.gapId;
        // An answer found not helpful (answers are not gaps until someone asks): the gap worded the same, or a new one.
        const same = await t
          .select({ gapId: gapMembers.gapId, question: interactions.question })
          .from(gapMembers)
          .innerJoin(gaps, eq(gaps.id, gapMembers.gapId))
          .innerJoin(interactions, eq(interactions.id, gapMembers.interactionId))
          .where(eq(gaps.kbId, interaction.kbId as number));
        const match = same.find((s) => questionKey(s.question) === questionKey(interaction.question));
        const id =
          match?.gapId ??
          ((
            await t
              .insert(gaps)
              .values({ kbId: interaction.kbId as number, question: interaction.question })
              .returning({ id: gaps.id })
          )[0]?.id as number);
        await t.insert(gapMembers).values({ interactionId: interaction.id, gapId: id }).onConflictDoNothing();
        return id;
      });
      const inserted = await db
        .insert(gapRequests)
        .values({ gapId, interactionId: interaction.id, asker: request.asker, target: request.target ?? null })
        .onConflictDoNothing()
        .returning({ id: gapRequests.id });
      const metric = (outcome: string) => instruments.expertRequests().add(1, { kb: interaction.kb, via: request.via, outcome });
      if (inserted.length === 0) {
        metric('duplicate');
        return { kind: 'already_asked', gapId };
      }
      const gap = await readGap(db, gapId);
      if (gap?.state === 'answered' || gap?.state === 'out_of_scope') {
        // Closed before this asker came: they hear it now, not later.
        await db.update(gapRequests).set({ notifiedAt: now() }).where(eq(gapRequests.interactionId, interaction.id));
        metric(gap.state);
        if (gap.state === 'out_of_scope') return { kind: 'out_of_scope', gapId };
        const [fact] = await db
          .select({ text: facts.text, at: facts.confirmedAt })
          .from(facts)
          .where(eq(facts.id, gap.factId as number));
        return { kind: 'answered', gapId, text: fact?.text ?? '', at: fact?.at ? new Date(fact.at).toISOString() : null };
      }
      // Reworded on the gap: the experts see the first question they were asked.
      if (gap?.state === 'open')
        await db
          .update(gaps)
          .set({ state: 'asked', askedAt: now(), question: interaction.question })
          .where(and(eq(gaps.id, gapId), eq(gaps.state, 'open')));
      metric('asked');
      // Posted now, or already posted: then the post shows one more asker.
      const shown = (await post(gapId)) ?? (await refresh(gapId));
      const requests = shown?.requests ?? 1;
      return { kind: 'asked', gapId, requests };
    },

    async answer({ gapId, expert, text }) {
      const checked = checkedAnswerText(text);
      return close(gapId, expert, async (t, gap) => {
        const added = await addExpertFact(t, {
          kb: gap.kb,
          text: checked,
          question: gap.question,
          expert: `${expert.platform}:${expert.user}`,
          name: who(expert),
          at: now(),
        });
        await t
          .update(gaps)
          .set({ state: 'answered', factId: added.factId, closedBy: who(expert), closedAt: now() })
          .where(eq(gaps.id, gapId));
        return { kind: 'answered', gapId, factId: added.factId, version: added.version };
      });
    },

    dismiss({ gapId, expert }) {
      return close(gapId, expert, async (t) => {
        await t
          .update(gaps)
          .set({ state: 'out_of_scope', closedBy: who(expert), closedAt: now() })
          .where(eq(gaps.id, gapId));
        return { kind: 'dismissed', gapId };
      });
    },

    async isExpert(gapId, person) {
      const gap = await readGap(db, gapId);
      const entry = gap && entryOf(gap.kb);
      return entry ? isExpertOf(entry, person) : false;
    },

    async deliver() {
      // Refusals get their gaps here too, so gap metrics and the report stay current without anyone looking.
      for (const entry of deps.experts) {
        const index = await deps.indexes.get(entry.kb).catch(() => null); // a KB not ingested yet has no gaps
        if (index) await syncGaps(db, index, { now: now() });
      }
      const waiting = await db
        .select({ id: gaps.id, kb: knowledgeBases.name })
        .from(gaps)
        .innerJoin(knowledgeBases, eq(knowledgeBases.id, gaps.kbId))
        .where(and(eq(gaps.state, 'asked'), sql`${gaps.posts} = '[]'::jsonb`))
        .limit(50);
      let posted = 0;
      if (surfaces.size > 0) for (const gap of waiting) if (entryOf(gap.kb) && (await post(gap.id))) posted += 1;
      const told = await tellAskers();
      return { posted, told };
    },
  };
}

/** A person's CLI identity as an expert ("cli:NAME"); a name that cannot be one is refused. */
export function cliExpert(name: string | undefined): Person {
  const trimmed = name?.trim() ?? '';
  if (!/^\S{1,64}$/.test(trimmed))
    throw new CandorError('input_invalid', '--as NAME: your name as CANDOR_EXPERTS lists it ("cli:NAME"), one word', { status: 400 });
  return { platform: 'cli', user: trimmed, name: trimmed };
}
