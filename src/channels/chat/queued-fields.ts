import { z } from 'zod';

import type { ClaimedEntry } from '../../inbox/inbox-store.js';
import type { QueuedQuestion } from './chat-message.js';

/** What every channel's inbox payload keeps of a question, beside its own delivery fields. */
export const QUEUED_FIELDS = {
  conversationRef: z.string(),
  userHash: z.string().nullable(),
  text: z.string(),
  /** The receiving request's trace context: answering continues that trace. */
  trace: z.record(z.string(), z.string()).optional(),
  /** The KBs that answer where it was asked; absent (rows of earlier versions): the default. */
  kbs: z.array(z.string()).optional(),
  /** The thread it was asked in (see QueuedThread); absent in rows of earlier versions. */
  thread: z.object({ ref: z.string(), requireEarlier: z.boolean(), withinMs: z.number().optional() }).optional(),
} as const;

type QueuedFields = z.infer<z.ZodObject<typeof QUEUED_FIELDS>>;

/** The question of a stored payload, as the answer path takes it. */
export function queuedQuestion(channel: QueuedQuestion['channel'], entry: Pick<ClaimedEntry, 'eventId'>, p: QueuedFields): QueuedQuestion {
  return {
    channel,
    eventId: entry.eventId,
    conversationRef: p.conversationRef,
    userHash: p.userHash,
    text: p.text,
    kbs: p.kbs,
    thread: p.thread,
  };
}
