import { isListedExpert } from '../config/experts-setting.js';
import type { CloseOutcome, ExpertCard, ExpertDesk, GapState, Person } from '../gaps/expert-types.js';
import { gapOfInteraction, gapRefusals } from '../gaps/gap-reads.js';
import { syncGaps } from '../gaps/sync-gaps.js';
import { checkedAnswerText } from '../kb/expert-answer-text.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { EXPERT_SOURCE_PREFIX, expertTitle } from '../kb/knowledge-index.js';
import type { Db } from '../store/open-store.js';

/** The platform of console experts: CANDOR_EXPERTS lists them as `console:NAME`, NAME a CANDOR_CONSOLE_BASIC_AUTH user. */
export const CONSOLE_EXPERT_PLATFORM = 'console';
/** The viewer name of the shared console token (its sign-in form, a sign-in link, a bearer token): nobody in particular. */
const SHARED_TOKEN_USER = 'token';

/** The fact an answer would add, as the console shows it before it is added. */
export interface AnswerPreview {
  readonly kb: string;
  /** The text as it would be stored (trimmed). */
  readonly text: string;
  /** The gap's question, stored with the fact as a searchable alias. */
  readonly question: string;
  /** The fact's source ("expert:console:NAME") and who it names. */
  readonly source: string;
  readonly by: string;
  /** How a reply would cite it ("Answered by an expert on 2026-11-25"). */
  readonly cited: string;
}

/** A refusal of a gap, as its page lists it. */
export type GapRefusal = Awaited<ReturnType<typeof gapRefusals>>[number];

/**
 * The experts desk as the console uses it: the same desk (and so the same checks, rows and notices) as the
 * Slack and Teams buttons and `candor gaps`, with the console's rule for who is acting.
 */
export interface ConsoleGaps {
  /** The expert a console user acts as on a KB's gaps, or null: not listed as `console:NAME` for it (the shared token is nobody). */
  expertOf(kb: string, user: string): Person | null;
  /** Why a console user sees a KB's gaps but not their forms, in words they can act on. */
  whyNot(kb: string, user: string): string;
  /** A gap as its experts' post shows it, or null when there is none. */
  card(gapId: number): Promise<ExpertCard | null>;
  /** Its refusals, newest first. */
  refusals(gapId: number): Promise<GapRefusal[]>;
  /** The gap of a refused interaction (its KB's new refusals are given gaps first), or null. */
  gapOf(interactionId: number, kb: string | null): Promise<{ id: number; state: GapState } | null>;
  /** The fact an answer would add; throws a CandorError (400) for an empty or over-long text. */
  preview(card: ExpertCard, expert: Person, text: string): AnswerPreview;
  answer(request: { gapId: number; expert: Person; text: string }): Promise<CloseOutcome>;
  dismiss(request: { gapId: number; expert: Person }): Promise<CloseOutcome>;
}

function notAnExpert(kb: string, user: string, listed: boolean): string {
  if (!listed) return `Nobody answers “${kb}” gaps in the console: CANDOR_EXPERTS lists no console:NAME for it.`;
  return user === SHARED_TOKEN_USER
    ? 'Signed in with the shared console token, which names nobody: answers need a person. Sign in as a CANDOR_CONSOLE_BASIC_AUTH user listed as console:NAME for this KB in CANDOR_EXPERTS.'
    : `“${user}” is not an expert of “${kb}”: ask whoever runs Candor to add console:${user} to its people in CANDOR_EXPERTS.`;
}

/** The production console gaps, over the store and the experts desk the server's chat channels share. */
export function createConsoleGaps(deps: { db: Db; indexes: KnowledgeIndexCache; desk: ExpertDesk; now?: () => Date }): ConsoleGaps {
  const { db, desk } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    expertOf(kb, user) {
      const entry = desk.entry(kb);
      if (!entry || user === SHARED_TOKEN_USER || !isListedExpert(entry.people, CONSOLE_EXPERT_PLATFORM, user)) return null;
      return { platform: CONSOLE_EXPERT_PLATFORM, user, name: user };
    },
    whyNot: (kb, user) => notAnExpert(kb, user, desk.entry(kb)?.people.some((p) => p.startsWith(`${CONSOLE_EXPERT_PLATFORM}:`)) ?? false),
    card: (gapId) => desk.card(gapId),
    refusals: (gapId) => gapRefusals(db, gapId),
    async gapOf(interactionId, kb) {
      const found = await gapOfInteraction(db, interactionId);
      if (found !== null || kb === null) return found;
      // Refusals are given gaps when someone reads them; this page is such a reader.
      const index = await deps.indexes.get(kb).catch(() => null);
      if (index) await syncGaps(db, index, { now: now() });
      return gapOfInteraction(db, interactionId);
    },
    preview: (card, expert, text) => ({
      kb: card.kb,
      text: checkedAnswerText(text),
      question: card.question,
      source: `${EXPERT_SOURCE_PREFIX}${expert.platform}:${expert.user}`,
      by: expert.name ?? expert.user,
      cited: expertTitle(now()),
    }),
    answer: (request) => desk.answer(request),
    dismiss: (request) => desk.dismiss(request),
  };
}
