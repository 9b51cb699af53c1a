import { App, webApi } from '@slack/bolt';

import { CandorError } from '../../kernel/errors.js';
import { foreignText } from '../../kernel/log.js';
import { withinTime } from '../../kernel/within-time.js';
import type { AnswerOnceDeps } from '../chat/answer-once.js';
import { answersUnmentioned, routeFor, type Place } from '../chat/channel-routes.js';
import { answerDeps, type ChatServices } from '../chat/chat-services.js';
import { startInboxWorker, type InboxWorker } from '../chat/inbox-worker.js';
import type { Route } from '../http/api-routes.js';
import { answerSlackEntry } from './answer-slack-entry.js';
import { boltLogger } from './bolt-logger.js';
import { candorCommand, enqueueCommand } from './candor-command.js';
import { createRateGate } from './rate-gate.js';
import { registerSlackExperts } from './slack-experts.js';
import { registerSlackFeedback } from './slack-feedback.js';
import { slackInbound, type SlackQuestion } from './slack-inbound.js';
import { slackPayload } from './slack-inbox.js';
import { SLACK_EVENTS_PATH, SlackEventsReceiver } from './slack-receiver.js';
import { registerSlackReview, type SlackReview } from './slack-review.js';
import { SlackSocketReceiver } from './slack-socket-receiver.js';
import { slackUserGroups, type SlackGroupMembership } from './slack-user-groups.js';
import { checkToken, posterClient, startupError, webClientOptions, type SlackAuth, type SlackSettings } from './slack-web-client.js';

export { SLACK_EVENTS_PATH };

export interface SlackChannelOptions {
  /** Add the working reaction when a reply takes longer than this. @default 1500 */
  readonly reactionDelayMs?: number;
  /** @default 'hourglass_flowing_sand' */
  readonly reaction?: string;
  /** Web API retries for network errors, 5xx and 429 (each 429 waits its Retry-After first). @default 3 */
  readonly retries?: number;
  /** Web API request timeout. @default 10000 */
  readonly timeoutMs?: number;
  /** Answers worked on at once; more wait in the inbox. @default CANDOR_INBOX_CONCURRENCY */
  readonly answerConcurrency?: number;
}

export interface SlackChannel {
  readonly mode: 'http' | 'socket';
  /** Handles POST /slack/events on the shared server; null in Socket Mode. */
  readonly route: Route | null;
  readonly bot: { readonly userId: string; readonly team: string };
  /** Review cards in the review channel (CANDOR_REVIEW_SLACK_CHANNEL). */
  readonly review: SlackReview;
  /** Disconnects Socket Mode, stops taking questions from the inbox and waits (up to `graceMs`) for replies in flight. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the Slack channel: checks the bot token with auth.test (a rejected
 * token is a start-up error), then receives events over HTTP (Bolt's signature
 * check in Candor's receiver, mounted on Candor's server) or, when
 * SLACK_APP_TOKEN is set, over Socket Mode (no public URL). In both, a
 * question is stored in the durable inbox before Slack is told it arrived;
 * inbox workers answer and reply, at most once per event id across replicas,
 * and take up again what a dead worker left.
 */
export async function startSlackChannel(host: ChatServices, options: SlackChannelOptions = {}): Promise<SlackChannel> {
  const settings = host.config.slack;
  if (!settings) throw new CandorError('config_invalid', 'The Slack channel is off: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET.');
  const logger = boltLogger(host.log);
  const clientOptions = webClientOptions(settings, logger, options);
  const auth = await checkToken(new webApi.WebClient(settings.botToken, clientOptions), settings);

  const deps: AnswerOnceDeps = answerDeps(host);
  const inboxSettings = host.config.inbox;
  let worker: InboxWorker | undefined;
  const wake = () => worker?.wake();
  const client = new webApi.WebClient(settings.botToken, clientOptions);
  const isGroupMember = slackUserGroups(client, host.log);
  const { channels } = host.config;
  // Read before the acknowledgement: a slow user-group read must not hold it past Slack's 3 s (then: not a member).
  const askerIn = (group: string, user: string) => withinTime(isGroupMember([group], user), GROUP_LOOKUP_MS, () => false);
  const enqueue = enqueueSlackQuestion(host, deps, askerIn, wake);
  // One rules object for every event: a closure made per event would cost a burst an allocation (and a name) each.
  const inboundRules = { botUserId: auth.userId, unmentioned: (place: Place) => answersUnmentioned(channels, place) };
  const parse = (body: unknown) => slackInbound(body, inboundRules);
  const http = settings.appToken ? null : new SlackEventsReceiver({ signingSecret: settings.signingSecret ?? '', logger, parse, enqueue });
  const receiver: SlackEventsReceiver | SlackSocketReceiver =
    http ?? new SlackSocketReceiver({ appToken: settings.appToken as string, logger, clientOptions, parse, enqueue });
  const bolt = boltApp(settings, auth, receiver, { logger, clientOptions });
  const reaction = { delayMs: options.reactionDelayMs ?? 1500, name: options.reaction ?? 'hourglass_flowing_sand', log: host.log };

  worker = startInboxWorker(host.inbox, {
    channel: 'slack',
    concurrency: options.answerConcurrency ?? inboxSettings.concurrency,
    leaseMs: inboxSettings.leaseMs,
    pollMs: inboxSettings.pollMs,
    maxAttempts: inboxSettings.maxAttempts,
    recoverFirst: host.soleWriter,
    // Answering waits while questions arrive (until the receiver has been quiet a moment; 2 s at most in a row):
    // acknowledgements come first, and a burst's answers would otherwise take the event loop between its requests.
    holdWhile: () => receiver.busy,
    log: host.log,
    process: answerSlackEntry(
      host,
      deps,
      { poster: posterClient(settings, clientOptions), reader: client },
      { reaction, apiUrl: settings.apiUrl, settleMs: settings.sendSettleMs, gate: createRateGate(), retries: options.retries },
    ),
  });
  const review = registerSlackHandlers(bolt, client, host, { askerIn, isGroupMember, wake });

  let mode: SlackChannel['mode'] = 'http';
  if (settings.appToken) {
    mode = 'socket';
    await bolt.start().catch((error: unknown) => {
      throw startupError(error, 'SLACK_APP_TOKEN', settings);
    });
  }
  host.log('info', 'slack channel on', {
    mode,
    bot: auth.userId,
    team: auth.team,
    ...(mode === 'http' ? { path: SLACK_EVENTS_PATH } : {}),
  });
  return {
    mode,
    route: http ? http.route() : null,
    bot: { userId: auth.userId, team: auth.team },
    review,
    async stop(graceMs = 10_000) {
      if (mode === 'socket') await bolt.stop().catch(() => undefined);
      await worker.stop(graceMs);
    },
  };
}

/** Bolt over Candor's receiver, for everything besides questions (buttons, reactions, modals, /candor). */
function boltApp(
  settings: SlackSettings,
  auth: SlackAuth,
  receiver: SlackEventsReceiver | SlackSocketReceiver,
  { logger, clientOptions }: { logger: webApi.WebClientOptions['logger']; clientOptions: webApi.WebClientOptions },
): App {
  return new App({
    token: settings.botToken,
    botId: auth.botId,
    botUserId: auth.userId,
    tokenVerificationEnabled: false,
    receiver,
    logger,
    clientOptions,
    // No conversation-state middleware: Candor keeps no per-conversation state, and it costs every event.
    convoStore: false,
  });
}

/**
 * What the receiver calls for a question, before Slack is told it arrived: the conversation's mapping is read,
 * and the question is stored in the inbox (once per event id) with its KBs and reply mode.
 */
function enqueueSlackQuestion(
  host: ChatServices,
  deps: AnswerOnceDeps,
  askerIn: (group: string, user: string) => Promise<boolean>,
  wake: () => void,
) {
  const { channels } = host.config;
  return async (question: SlackQuestion, retryNum: number) => {
    // The mapping is read on arrival: the stored question carries its KBs and reply mode.
    const route = await routeFor(channels, host.config.kb.defaultName, question.place, {
      user: question.user,
      isMember: askerIn,
    });
    if (!question.mentioned && !question.direct && route.mentionOnly) {
      return void host.log('debug', 'slack: event ignored', { reason: 'not_mentioned_for_asker' });
    }
    const fresh = await host.inbox.put({
      channel: 'slack',
      eventId: question.inbound.eventId,
      payload: slackPayload(question, deps.userHashSalt, retryNum, route),
    });
    if (fresh) wake();
    else host.log('info', 'duplicate delivery ignored', { channel: 'slack', eventId: question.inbound.eventId, retryNum });
  };
}

/** Everything besides questions: the /candor command, review cards, reply buttons, the experts' buttons, Bolt's errors. */
function registerSlackHandlers(
  bolt: App,
  client: webApi.WebClient,
  host: ChatServices,
  asking: { askerIn: (group: string, user: string) => Promise<boolean>; isGroupMember: SlackGroupMembership; wake: () => void },
): SlackReview {
  const { askerIn, isGroupMember } = asking;
  bolt.command(
    '/candor',
    candorCommand({
      ...host,
      route: (place, user) => routeFor(host.config.channels, host.config.kb.defaultName, place, { user, isMember: askerIn }),
      enqueueAsk: enqueueCommand(host, asking.wake),
    }),
  );
  const review = registerSlackReview(bolt, client, {
    review: host.review,
    log: host.log,
    channel: host.config.review.slackChannel,
    reviewers: host.config.review.reviewers,
    isGroupMember,
    publicUrl: host.config.publicUrl,
  });
  registerSlackFeedback(bolt, client, { feedback: host.feedback, experts: host.experts, log: host.log });
  registerSlackExperts(bolt, client, { experts: host.experts, log: host.log, isGroupMember });
  bolt.error(async (error) => {
    host.log('error', 'slack: unhandled error', { error: foreignText([error]), code: error.code });
  });
  return review;
}

/** How long the user-group read of a channel's `askers` may hold a question's acknowledgement. */
const GROUP_LOOKUP_MS = 1500;
