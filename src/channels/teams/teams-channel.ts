import { ActivityTypes, type TurnContext } from 'botbuilder';

import type { Config } from '../../config.js';
import { CandorError, describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { ATTR } from '../../telemetry/attributes.js';
import { withTraceFrom } from '../../telemetry/trace-carrier.js';
import { answerOrGiveUp, EVENT_ATTR, type AnswerOnceDeps } from '../chat/answer-once.js';
import { answersUnmentioned, describeRoute, routeFor, type Place } from '../chat/channel-routes.js';
import { answerDeps, type ChatServices } from '../chat/chat-services.js';
import { startInboxWorker, type InboxWorker, type InboxWorkerOptions } from '../chat/inbox-worker.js';
import { statusReply } from '../chat/status-reply.js';
import type { Route } from '../http/api-routes.js';
import { readJsonBody } from '../http/read-json-body.js';
import { requestPath } from '../http/request-target.js';
import { checkActivity } from './activity-envelope.js';
import { botFrameworkAuthentication } from './bot-framework-auth.js';
import { CandorTeamsBot, type TeamsBotDeps, type TeamsReaction } from './candor-teams-bot.js';
import { sendPersonal, sendReply } from './proactive-send.js';
import { answerTurn, InboxUnavailable, runTurn, TurnAdapter } from './run-turn.js';
import { teamsExperts } from './teams-experts.js';
import { teamsEntry, teamsPayload } from './teams-inbox.js';
import { teamsReplyActions, type TeamsReplyActions } from './teams-reply-actions.js';
import { teamsReview } from './teams-review.js';

export const TEAMS_MESSAGES_PATH = '/api/messages';

export interface TeamsChannelOptions {
  /** Send a typing indicator when a reply takes longer than this. @default 1500 */
  readonly typingDelayMs?: number;
  /** Called for every reaction added or removed (the review feature's hook). */
  readonly onReaction?: (reaction: TeamsReaction) => void | Promise<void>;
}

export interface TeamsChannel {
  readonly route: Route;
  /** True only in explicit development mode (CANDOR_TEAMS_ALLOW_ANONYMOUS=true, no app id). */
  readonly anonymous: boolean;
  /** Posts review cards for unposted samples into CANDOR_REVIEW_TEAMS_CONVERSATION; returns how many. */
  postPendingReviews(): Promise<number>;
  /** Posts the agreement report's summary into the review conversation. */
  postReviewSummary(text: string): Promise<void>;
  /** Stops taking questions from the inbox and waits (up to `graceMs`) for turns and replies in flight. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The Teams channel: Bot Framework activities at POST /api/messages through
 * botbuilder's CloudAdapter. With MICROSOFT_APP_ID set every request must carry
 * a valid Bot Framework JWT (401 otherwise); without it the adapter runs
 * anonymously, which is allowed only when the development setting says so.
 */
export function startTeamsChannel(host: ChatServices, options: TeamsChannelOptions = {}): TeamsChannel {
  const settings = host.config.teams;
  if (!settings) throw new CandorError('config_invalid', 'The Teams channel is off: set MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD.');
  const anonymous = settings.appId === undefined;
  if (anonymous && !settings.allowAnonymous)
    throw new CandorError('config_invalid', 'MICROSOFT_APP_ID: missing (or set CANDOR_TEAMS_ALLOW_ANONYMOUS=true for local development)');
  const adapter = turnAdapter(settings, anonymous, host.log);
  const deps = answerDeps(host);
  const appId = settings.appId ?? '';
  let worker: InboxWorker | undefined;
  const review = teamsReview(adapter, appId, {
    review: host.review,
    log: host.log,
    conversation: host.config.review.teamsConversation,
    publicUrl: host.config.publicUrl,
  });
  const replyActions = teamsReplyActions({ feedback: host.feedback, experts: host.experts, secret: deps.userHashSalt, log: host.log });
  const experts = teamsExperts(adapter, appId, { experts: host.experts, log: host.log });
  host.experts.attach(experts.surface);
  const bot = new CandorTeamsBot({
    log: host.log,
    userHashSalt: deps.userHashSalt,
    unmentioned: (place) => answersUnmentioned(host.config.channels, place),
    enqueue: enqueueTeamsQuestion(host, deps, () => worker?.wake()),
    onReaction: options.onReaction,
    statusText: (place) => teamsStatusText(host, place),
    review,
    submits: [(context) => replyActions.handleSubmit(context), (context) => experts.handleSubmit(context)],
  });
  if (anonymous) {
    host.log(
      'warn',
      'teams channel runs WITHOUT authentication (CANDOR_TEAMS_ALLOW_ANONYMOUS=true): anyone who can reach /api/messages can make the bot answer and choose where it posts. Use for local development only; set MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD in production.',
    );
  }
  host.log('info', 'teams channel on', { path: TEAMS_MESSAGES_PATH, auth: anonymous ? 'anonymous' : settings.appType });
  worker = startInboxWorker(host.inbox, {
    channel: 'teams',
    concurrency: host.config.inbox.concurrency,
    leaseMs: host.config.inbox.leaseMs,
    pollMs: host.config.inbox.pollMs,
    maxAttempts: host.config.inbox.maxAttempts,
    recoverFirst: host.soleWriter,
    log: host.log,
    process: answerTeamsEntry(host, deps, { adapter, appId, replyActions, typingDelayMs: options.typingDelayMs ?? 1500 }),
  });

  const inFlight = new Set<Promise<unknown>>();
  return {
    route: teamsMessagesRoute(host, adapter, bot, { anonymous, inFlight }),
    anonymous,
    postPendingReviews: () => review.postPending(),
    postReviewSummary: (text) => review.postSummary(text),
    async stop(graceMs = 10_000) {
      const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      await worker?.stop(graceMs);
    },
  };
}

/** botbuilder's adapter, authenticating with the app's credentials (or none, in development). */
function turnAdapter(settings: NonNullable<Config['teams']>, anonymous: boolean, log: Log): TurnAdapter {
  const adapter = new TurnAdapter(botFrameworkAuthentication(settings, anonymous));
  adapter.onTurnError = async (_context, error) => {
    // A question that could not be stored must not be taken as delivered: the adapter answers 500.
    if (error instanceof InboxUnavailable) throw error;
    log('error', 'teams: turn failed', { error: describeError(error) });
  };
  return adapter;
}

/**
 * What the bot calls for a question inside the adapter's turn: the conversation's mapping is read, and the
 * question is stored in the inbox (once per activity); a failure to store fails the turn (not acknowledged).
 */
function enqueueTeamsQuestion(host: ChatServices, deps: AnswerOnceDeps, wake: () => void): TeamsBotDeps['enqueue'] {
  return async (question, context, how) => {
    const route = await routeFor(host.config.channels, host.config.kb.defaultName, question.place);
    if (!question.mentioned && route.mentionOnly) return void host.log('debug', 'teams: activity ignored', { reason: 'not_mentioned' });
    let fresh: boolean;
    try {
      fresh = await host.inbox.put({
        channel: 'teams',
        eventId: question.inbound.eventId,
        payload: teamsPayload(question, context, deps.userHashSalt, { kbs: route.kbs, privately: how?.privately ?? false }),
      });
    } catch (error) {
      host.log('error', 'teams: could not store a question; not acknowledged', { error: describeError(error) });
      throw new InboxUnavailable(describeError(error));
    }
    if (fresh) wake();
    else host.log('info', 'duplicate delivery ignored', { channel: 'teams', eventId: question.inbound.eventId });
  };
}

/** The reply to "status": which KB answers in this place, and its status. */
async function teamsStatusText(host: ChatServices, place: Place): Promise<string> {
  const route = await routeFor(host.config.channels, host.config.kb.defaultName, place);
  return `${describeRoute(route).replace(/\*/g, '')}\n\n${await statusReply(host, 'teams', undefined, route.kbs)}`;
}

/**
 * How an inbox worker answers a stored question: once per activity, with a typing indicator while it takes long,
 * sent proactively as a reply to the question (or in the asker's personal chat); a refusal may then go to the experts.
 */
function answerTeamsEntry(
  host: ChatServices,
  deps: AnswerOnceDeps,
  teams: { adapter: TurnAdapter; appId: string; replyActions: TeamsReplyActions; typingDelayMs: number },
): InboxWorkerOptions['process'] {
  const { adapter, appId, replyActions, typingDelayMs } = teams;
  return (entry, { final }) => {
    if (entry.postedRef !== null) return Promise.resolve(entry.postedRef);
    const q = teamsEntry(entry);
    // Replies go out proactively, into the conversation and as a reply to the question.
    const send = (activity: Parameters<TurnContext['sendActivity']>[0]) =>
      q.privately ? sendPersonal(adapter, appId, q.reference, activity) : sendReply(adapter, appId, q.reference, q.replyToId, activity);
    return withTraceFrom(q.trace, () =>
      answerOrGiveUp(
        deps,
        q.question,
        {
          attributes: { [ATTR.teamsPersonal]: q.personal, [EVENT_ATTR.attempt]: entry.attempts },
          working: () => typingIndicator(() => send({ type: ActivityTypes.Typing }), typingDelayMs, host.log),
          deliver: async (reply) => {
            // The connector has no way to read a conversation back: a reply sent when the process died goes again.
            if (entry.maybeSent) host.log('info', 'teams: sending again a reply an earlier try may have sent', { eventId: entry.eventId });
            // Landed or not once the connector answers (or the request times out): taken again at once after a crash.
            await host.inbox.sending(entry.id, 0);
            const id = await send(replyActions.activity(reply));
            if (id !== null) await host.inbox.posted(entry.id, id);
            // A refusal the KB's experts take without a press (autoAsk); never fails the delivery.
            if (id !== null && reply.kind === 'decision')
              await replyActions.autoAsk(reply.decision, { platform: 'teams', reference: q.reference, replyToId: q.replyToId });
            return id;
          },
        },
        final,
      ),
    );
  };
}

/** POST /api/messages: the activity is checked, then the adapter authenticates it and runs the bot's turn. */
function teamsMessagesRoute(
  host: ChatServices,
  adapter: TurnAdapter,
  bot: CandorTeamsBot,
  { anonymous, inFlight }: { anonymous: boolean; inFlight: Set<Promise<unknown>> },
): Route {
  return async (req, res) => {
    if (requestPath(req) !== TEAMS_MESSAGES_PATH) return false;
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return true;
    }
    const checked = checkActivity(await readJsonBody(req, host.config.http.maxBodyBytes));
    if (!checked.ok) throw new CandorError('input_invalid', `Not a Bot Framework activity (${checked.problem}).`, { status: 400 });
    // The adapter authenticates (JWT) and runs the turn; how it ends is answered here, in one log line each.
    const turn = runTurn(adapter, req.headers.authorization ?? '', checked.activity, (context) => bot.run(context), {
      authenticated: !anonymous,
    }).then((outcome) => answerTurn(res, outcome, host.log));
    inFlight.add(turn);
    try {
      await turn;
    } finally {
      inFlight.delete(turn);
    }
    return true;
  };
}

function typingIndicator(send: () => Promise<unknown>, delayMs: number, log: Log): () => Promise<void> {
  const timer = setTimeout(() => {
    send().catch((error: unknown) => log('debug', 'teams: could not send typing', { error: describeError(error) }));
  }, delayMs);
  return async () => clearTimeout(timer);
}
