import type { Services } from '../ask/services.js';
import { createStatusQuery } from '../ask/status-report.js';
import type { ChatServices } from '../channels/chat/chat-services.js';
import { createFeedbackService } from '../feedback/feedback-service.js';
import { createExpertDesk } from '../gaps/expert-desk.js';
import { createInbox } from '../inbox/inbox-store.js';
import { createReviewDesk } from '../review/review-desk.js';

/** The production services of the chat channels (Slack, Teams), over the app's store. */
export function createChatServices(app: Pick<Services, 'config' | 'store' | 'chatAsk' | 'log' | 'indexes'>): ChatServices {
  const { config, log } = app;
  return {
    config,
    log,
    ask: app.chatAsk,
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
