import type { Decision } from '../../ask/decision.js';

/** One question as a chat channel received it, before normalisation. */
export interface InboundQuestion {
  readonly channel: 'slack' | 'teams';
  /** The platform's id for this delivery: the same on every retry of it. */
  readonly eventId: string;
  /** Where the reply goes: workspace/team, conversation, thread. */
  readonly conversationRef: string;
  /** Raw platform user id; hashed before it is stored. */
  readonly userId: string;
  readonly text: string;
}

/** What the channel has to render: a decision, or a plain message about the input. */
export type Reply = { readonly kind: 'decision'; readonly decision: Decision } | { readonly kind: 'problem'; readonly message: string };

/** A question as the inbox keeps it: the user id already hashed (the inbox never holds a raw one). */
export interface QueuedQuestion {
  readonly channel: InboundQuestion['channel'];
  readonly eventId: string;
  readonly conversationRef: string;
  readonly userHash: string | null;
  readonly text: string;
  /** The knowledge bases that answer where it was asked (CANDOR_CHANNELS); absent: the default. */
  readonly kbs?: readonly string[] | undefined;
  /** The thread it was asked in: a follow-up there is read with the thread's earlier question. */
  readonly thread?: QueuedThread | undefined;
}

export interface QueuedThread {
  readonly ref: string;
  /** A message read without a mention: a question only as a follow-up in a thread the bot replied in. */
  readonly requireEarlier: boolean;
  /** Only an earlier question this recent counts (a direct message's running conversation). */
  readonly withinMs?: number | undefined;
}

/** How long a direct message's earlier question stays the context of the next one. */
export const DIRECT_FOLLOW_UP_MS = 10 * 60_000;

/** Reads a follow-up with the thread's earlier question: the question the gate should judge. */
export type FollowUp = (input: {
  readonly previous: string;
  readonly followUp: string;
  readonly kbs: readonly string[];
}) => Promise<{ readonly question: string; readonly method: 'as_asked' | 'rewritten' | 'borrowed' }>;
