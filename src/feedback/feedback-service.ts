import { hashUserId } from '../ask/record-interaction.js';
import type { Db } from '../store/open-store.js';
import { recordFeedback, type FeedbackKind, type FeedbackOutcome, type FeedbackReason } from './asker-feedback.js';

/** Asker feedback as a chat channel gives it: raw platform ids in, hashed before anything is stored. */
export interface FeedbackService {
  record(event: {
    readonly interactionId: number;
    readonly platform: 'slack' | 'teams';
    /** The platform's user id (hashed with the deployment's salt before it is stored). */
    readonly user: string;
    readonly kind: FeedbackKind;
    readonly reason?: FeedbackReason | undefined;
    readonly comment?: string | undefined;
    readonly eventId?: string | undefined;
  }): Promise<FeedbackOutcome>;
  /** "<platform>:<hashed user id>": how an asker is stored (feedback, expert requests). */
  asker(platform: 'slack' | 'teams', user: string): string;
}

export function createFeedbackService(db: Db, salt: string): FeedbackService {
  const asker = (platform: string, user: string) => `${platform}:${hashUserId(user, salt)}`;
  return {
    asker,
    record: ({ platform, user, ...event }) => recordFeedback(db, { ...event, asker: asker(platform, user) }),
  };
}
