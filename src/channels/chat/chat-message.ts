import type { ChatQuestion, ChatReply, ChatThread } from '../../ask/chat-ask.js';

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
export type Reply = ChatReply;

/** A question as the inbox keeps it: the user id already hashed (the inbox never holds a raw one). */
export interface QueuedQuestion extends ChatQuestion {
  readonly channel: InboundQuestion['channel'];
}

export type QueuedThread = ChatThread;

/** How long a direct message's earlier question stays the context of the next one. */
export const DIRECT_FOLLOW_UP_MS = 10 * 60_000;
