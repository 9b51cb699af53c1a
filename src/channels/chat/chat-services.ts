import type { ChatAsk } from '../../ask/chat-ask.js';
import type { StatusQuery } from '../../ask/status-report.js';
import type { Config } from '../../config.js';
import type { FeedbackService } from '../../feedback/feedback-service.js';
import type { ExpertDesk } from '../../gaps/expert-types.js';
import type { Inbox } from '../../inbox/inbox-store.js';
import type { Log } from '../../kernel/log.js';
import type { ReviewDesk } from '../../review/review-desk.js';
import type { AnswerOnceDeps } from './answer-once.js';

/**
 * What a chat channel may call in the app: an object of functions, so that a
 * channel holds no database handle and no composition root, only transport
 * and rendering. Built in production by `createChatServices` (src/app/chat-services.ts).
 */
export interface ChatServices {
  readonly config: Config;
  readonly log: Log;
  /** The ask path of a chat event: it normalises, claims, asks and writes the event's interaction row. */
  readonly ask: ChatAsk;
  /** The durable inbox: questions stored on receipt, answered by workers. */
  readonly inbox: Inbox;
  /** The embedded store is one process's: a claim left in it is a dead process's, so workers may take it at once. */
  readonly soleWriter: boolean;
  /** A knowledge base's version, size and today's abstention rate. */
  readonly status: StatusQuery;
  /** Posting review cards and applying labels, written once for every channel. */
  readonly review: ReviewDesk;
  /** Askers' 👍/👎 on replies. */
  readonly feedback: FeedbackService;
  /** "Ask an expert": gaps, experts' posts and answers that become facts, written once for every channel. */
  readonly experts: ExpertDesk;
}

/** The answer-once dependencies a chat channel takes from its services. */
export function answerDeps(services: ChatServices): AnswerOnceDeps {
  return { ask: services.ask, userHashSalt: services.config.telemetry.userHashSalt };
}
