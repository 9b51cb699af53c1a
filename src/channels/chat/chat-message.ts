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
}
