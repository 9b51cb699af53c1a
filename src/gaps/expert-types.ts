import type { ExpertsEntry } from '../config/experts-setting.js';

/**
 * What the experts desk offers and what chat channels give it: the contract
 * between src/gaps (the store side) and the Slack and Teams adapters (the
 * transport side). Types only, plus the list of gap states.
 */

/** What became of a gap: nobody asked yet, posted to the KB's experts, answered by one, or not for the KB. */
export type GapState = 'open' | 'asked' | 'answered' | 'out_of_scope';
export const GAP_STATES: readonly GapState[] = ['open', 'asked', 'answered', 'out_of_scope'];

/** Who acts: a platform user ("slack", "U123"), a CLI expert ("cli", "dana"), or a console user ("console", a basic-auth name). */
export interface Person {
  readonly platform: 'slack' | 'teams' | 'cli' | 'console';
  readonly user: string;
  /** As people read it; the user id when the platform gave no name. */
  readonly name?: string | undefined;
}

/** What an experts' post shows: the question, what the bot said, the closest facts, and its state. */
export interface ExpertCard {
  readonly gapId: number;
  readonly kb: string;
  readonly question: string;
  readonly state: GapState;
  /** Askers who pressed "Ask an expert" (or were routed automatically). */
  readonly requests: number;
  /** What the bot replied to the first request (its refusal, or the answer found not helpful). */
  readonly reply: string | null;
  /** The facts that came closest, with their sources. */
  readonly nearby: readonly { readonly text: string; readonly source: string }[];
  readonly answer: { readonly text: string; readonly by: string | null; readonly factId: number } | null;
  /** Who closed it, as people read it. */
  readonly closedBy: string | null;
  /** The signed value the card's buttons carry ("<gapId>.<token>"). */
  readonly action: string;
}

/** What a chat channel supplies to the experts desk: posting and telling, in its own words. */
export interface ExpertSurface {
  readonly platform: 'slack' | 'teams';
  /** Posts a question to the KB's experts; returns its post ref, or null when this platform has no place for the KB. */
  post(entry: ExpertsEntry, card: ExpertCard): Promise<string | null>;
  /** Re-renders a post this surface made (more askers; answered; out of scope). */
  update(ref: string, card: ExpertCard): Promise<void>;
  /** Tells an asker, where they asked. `target` is what this surface gave askExpert. */
  tell(target: Readonly<Record<string, unknown>>, text: string): Promise<void>;
  /** Whether a user belongs to a group among `people` ("slack:group:S…"). */
  readonly isGroupMember?: ((people: readonly string[], user: string) => Promise<boolean>) | undefined;
}

export type AskExpertOutcome =
  | { readonly kind: 'asked'; readonly gapId: number; readonly requests: number }
  | { readonly kind: 'already_asked'; readonly gapId: number }
  | { readonly kind: 'answered'; readonly gapId: number; readonly text: string; readonly at: string | null }
  | { readonly kind: 'out_of_scope'; readonly gapId: number }
  | { readonly kind: 'no_experts' }
  | { readonly kind: 'no_interaction' };

export type CloseOutcome =
  | { readonly kind: 'answered'; readonly gapId: number; readonly factId: number; readonly version: number }
  | { readonly kind: 'dismissed'; readonly gapId: number }
  | { readonly kind: 'already_closed'; readonly gapId: number; readonly state: GapState; readonly by: string | null }
  | { readonly kind: 'not_an_expert' }
  | { readonly kind: 'no_gap' };

export interface ExpertDesk {
  /** The experts of a KB, or undefined when it names none. */
  entry(kb: string): ExpertsEntry | undefined;
  /** A channel's posting and telling; attached once per channel at start. */
  attach(surface: ExpertSurface): void;
  /** "Ask an expert" on a reply: joins (or opens) the question's gap and posts it to experts once. */
  askExpert(request: {
    readonly interactionId: number;
    /** "<platform>:<hashed user id>", or "auto". */
    readonly asker: string;
    /** Where to tell the asker of the outcome (the surface's own shape; it carries `platform`). */
    readonly target?: Readonly<Record<string, unknown>> | null;
    readonly via: 'button' | 'auto';
  }): Promise<AskExpertOutcome>;
  /** An expert's answer: a new fact of the KB, the gap answered, its askers told. */
  answer(request: { readonly gapId: number; readonly expert: Person; readonly text: string }): Promise<CloseOutcome>;
  /** "Not for the KB": the gap is out of scope; its askers are told. */
  dismiss(request: { readonly gapId: number; readonly expert: Person }): Promise<CloseOutcome>;
  /** Whether a person may answer a gap (listed in the gap's KB's people, or a member of a listed group). */
  isExpert(gapId: number, person: Person): Promise<boolean>;
  /** A gap as its experts' post shows it, or null when there is none. */
  card(gapId: number): Promise<ExpertCard | null>;
  /** Posts questions still waiting for a post and tells askers of closed gaps not told yet; returns how many of each. */
  deliver(): Promise<{ posted: number; told: number }>;
  /** The signed value of a button on an interaction's reply; `read…` returns the id, or null for a forged value. */
  interactionAction(interactionId: number): string;
  readInteractionAction(value: unknown): number | null;
  readGapAction(value: unknown): number | null;
}
