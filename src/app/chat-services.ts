import { createInteractionClaims } from '../ask/interaction-claims.js';
import type { Services } from '../ask/services.js';
import { standaloneQuestion } from '../ask/standalone-question.js';
import { createStatusQuery } from '../ask/status-report.js';
import type { FollowUp } from '../channels/chat/chat-message.js';
import type { ChatServices } from '../channels/chat/chat-services.js';
import { createFeedbackService } from '../feedback/feedback-service.js';
import { createExpertDesk } from '../gaps/expert-desk.js';
import { createInbox } from '../inbox/inbox-store.js';
import { createReviewDesk } from '../review/review-desk.js';

/** The production services of the chat channels (Slack, Teams), over the app's store. */
export function createChatServices(app: Pick<Services, 'config' | 'store' | 'ask' | 'log' | 'indexes' | 'llm'>): ChatServices {
  const { config, log } = app;
  return {
    followUp: followUpReader(app),
    config,
    log,
    ask: app.ask,
    claims: createInteractionClaims(app.store.db),
    inbox: createInbox(app.store),
    soleWriter: app.store.kind === 'pglite',
    status: createStatusQuery(app.store.db),
    review: createReviewDesk(app.store.db, { reviewers: config.review.reviewers, tasks: config.review.tasks, log }),
    feedback: createFeedbackService(app.store.db, config.telemetry.userHashSalt),
    experts: createExpertDesk({
      db: app.store.db,
      indexes: app.indexes,
      experts: config.experts.kbs,
      secret: config.telemetry.userHashSalt,
      log,
    }),
  };
}

/**
 * Follow-ups in threads: the model rewrites them when one is configured; otherwise the no-model rule borrows
 * the earlier question's topic words that the channel's KBs hold.
 */
function followUpReader(app: Pick<Services, 'indexes' | 'llm' | 'log'>): FollowUp {
  return async ({ previous, followUp, kbs }) => {
    const vocabularies = app.llm ? [] : await Promise.all(kbs.map(async (kb) => (await app.indexes.get(kb)).vocabulary()));
    const made = await standaloneQuestion(
      { previous, followUp },
      {
        llm: app.llm,
        log: app.log,
        ...(vocabularies.length > 0 ? { vocabulary: (word: string) => vocabularies.some((v) => v.has(word)) } : {}),
      },
    );
    return { question: made.question, method: made.method };
  };
}
