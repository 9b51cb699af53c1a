import { App, HTTPReceiver, SocketModeReceiver, webApi, type Receiver } from '@slack/bolt';

import type { Config } from '../../config.js';
import { withEmoji } from '../../core/review/review-tasks.js';
import { CandorError } from '../../errors.js';
import type { App as CandorApp } from '../../main.js';
import { createAnswerQueue } from '../chat/answer-queue.js';
import type { Route } from '../http/api-routes.js';
import { answerOnce, chatDeps, EVENT_ATTR, type AnswerOnceDeps, type Reply } from './answer-once.js';
import { boltLogger } from './bolt-logger.js';
import { candorCommand } from './candor-command.js';
import { renderSlackReply } from './render-slack-reply.js';
import { slackInbound, type SlackQuestion } from './slack-inbound.js';
import { registerSlackReview, type SlackReview } from './slack-review.js';
import { describeSlackError, workingReaction } from './working-reaction.js';

export const SLACK_EVENTS_PATH = '/slack/events';

export type SlackHost = Pick<CandorApp, 'config' | 'store' | 'ask' | 'log'>;

export interface SlackChannelOptions {
  /** Add the working reaction when a reply takes longer than this. @default 1500 */
  readonly reactionDelayMs?: number;
  /** @default 'hourglass_flowing_sand' */
  readonly reaction?: string;
  /** Web API retries for network errors, 5xx and 429 (each 429 waits its Retry-After first). @default 3 */
  readonly retries?: number;
  /** Web API request timeout. @default 10000 */
  readonly timeoutMs?: number;
  /** Answers worked on at once; more wait in arrival order behind their acknowledgements. @default 4 */
  readonly answerConcurrency?: number;
}

export interface SlackChannel {
  readonly mode: 'http' | 'socket';
  /** Handles POST /slack/events on the shared server; null in Socket Mode. */
  readonly route: Route | null;
  readonly bot: { readonly userId: string; readonly team: string };
  /** Review cards in the review channel (CANDOR_REVIEW_SLACK_CHANNEL). */
  readonly review: SlackReview;
  /** Disconnects Socket Mode and waits (up to `graceMs`) for replies in flight. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the Slack channel: checks the bot token with auth.test (a rejected
 * token is a start-up error), then receives events over HTTP (signature
 * checked by Bolt's HTTPReceiver, mounted on Candor's server) or Socket Mode
 * when SLACK_APP_TOKEN is set. Bolt acknowledges each event at once; the
 * answer follows, at most once per event id across replicas.
 */
export async function startSlackChannel(host: SlackHost, options: SlackChannelOptions = {}): Promise<SlackChannel> {
  const settings = host.config.slack;
  if (!settings) throw new CandorError('config_invalid', 'The Slack channel is off: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET.');
  const logger = boltLogger(host.log);
  const clientOptions: webApi.WebClientOptions = {
    slackApiUrl: settings.apiUrl,
    logger,
    timeout: options.timeoutMs ?? 10_000,
    retryConfig: { retries: options.retries ?? 3, factor: 2, minTimeout: 500, maxTimeout: 10_000, randomize: true },
  };
  const auth = await checkToken(new webApi.WebClient(settings.botToken, clientOptions), settings);

  const receiver: Receiver & { requestListener?: HTTPReceiver['requestListener'] } = settings.appToken
    ? new SocketModeReceiver({ appToken: settings.appToken, logger, installerOptions: { clientOptions } })
    : new HTTPReceiver({ signingSecret: settings.signingSecret ?? '', endpoints: SLACK_EVENTS_PATH, logger, bodyLimit: 1024 * 1024 });
  const bolt = new App({
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

  const deps: AnswerOnceDeps = chatDeps(host);
  const answers = createAnswerQueue(options.answerConcurrency ?? 4);
  const reaction = { delayMs: options.reactionDelayMs ?? 1500, name: options.reaction ?? 'hourglass_flowing_sand', log: host.log };

  const onEvent = async ({ body, context, client }: { body: unknown; context: { retryNum?: number }; client: webApi.WebClient }) => {
    const parsed = slackInbound(body, auth.userId);
    if (!parsed.ok) return void host.log('debug', 'slack: event ignored', { reason: parsed.ignored });
    const q = parsed.question;
    // Bolt has acknowledged the event already; the answer runs behind it, so a burst is acked at once.
    void answers.push(() =>
      answerOnce(deps, q.inbound, {
        attributes: { [EVENT_ATTR.retryNum]: context.retryNum ?? 0, 'candor.slack.direct': q.direct },
        working: () => workingReaction(client, { channel: q.message.channel, timestamp: q.message.ts }, reaction),
        deliver: (reply) => postReply(client, q, reply, host.log),
      }),
    );
  };
  bolt.event('app_mention', onEvent);
  bolt.event('message', onEvent);
  bolt.command('/candor', candorCommand({ db: host.store.db, kb: host.config.kb.defaultName, log: host.log }));
  const review = registerSlackReview(bolt, new webApi.WebClient(settings.botToken, clientOptions), {
    db: host.store.db,
    log: host.log,
    channel: host.config.review.slackChannel,
    reviewers: host.config.review.reviewers,
    tasks: withEmoji(host.config.review.emoji),
  });
  bolt.error(async (error) => {
    host.log('error', 'slack: unhandled error', { error: error.message, code: error.code });
  });

  let mode: SlackChannel['mode'] = 'http';
  if (settings.appToken) {
    mode = 'socket';
    await bolt.start().catch((error: unknown) => {
      throw startupError(error, 'SLACK_APP_TOKEN', settings);
    });
  }
  const listener = receiver.requestListener;
  host.log('info', 'slack channel on', {
    mode,
    bot: auth.userId,
    team: auth.team,
    ...(mode === 'http' ? { path: SLACK_EVENTS_PATH } : {}),
  });
  return {
    mode,
    route: listener ? slackRoute(listener) : null,
    bot: { userId: auth.userId, team: auth.team },
    review,
    async stop(graceMs = 10_000) {
      if (mode === 'socket') await bolt.stop().catch(() => undefined);
      await answers.drain(graceMs);
    },
  };
}

function slackRoute(listener: NonNullable<HTTPReceiver['requestListener']>): Route {
  return async (req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== SLACK_EVENTS_PATH) return false;
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return true;
    }
    // Bolt reads and verifies the body, answers 401/400 itself, acks events at once and runs the listeners after.
    listener(req, res);
    return true;
  };
}

/** Channel-level Web API errors: the reply is dropped with a log line saying what to do. */
const DELIVERY_HINTS: Record<string, string> = {
  not_in_channel: 'invite the bot to the channel (/invite @Candor)',
  channel_not_found: 'the channel was deleted or the bot cannot see it',
  is_archived: 'the channel is archived',
  ratelimited: 'Slack kept rate-limiting the reply after every retry',
  msg_too_long: 'the reply exceeded Slack limits',
  invalid_blocks: 'Slack rejected the reply blocks',
};

async function postReply(client: webApi.WebClient, q: SlackQuestion, reply: Reply, log: CandorApp['log']): Promise<void> {
  for (const message of renderSlackReply(reply)) {
    try {
      await client.chat.postMessage({
        channel: q.reply.channel,
        ...(q.reply.threadTs ? { thread_ts: q.reply.threadTs } : {}),
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
        unfurl_media: false,
      });
    } catch (error) {
      const code = describeSlackError(error);
      const hint = DELIVERY_HINTS[code];
      log(hint ? 'warn' : 'error', 'slack: reply not delivered', {
        code,
        channel: q.reply.channel,
        eventId: q.inbound.eventId,
        ...(hint ? { hint } : {}),
      });
      return;
    }
  }
}

async function checkToken(
  client: webApi.WebClient,
  settings: NonNullable<Config['slack']>,
): Promise<{ userId: string; botId: string | undefined; team: string }> {
  try {
    const auth = await client.auth.test();
    if (!auth.user_id) throw new Error('auth.test returned no user_id: is SLACK_BOT_TOKEN a bot token (xoxb-…)?');
    return { userId: auth.user_id, botId: auth.bot_id, team: auth.team ?? auth.team_id ?? 'unknown' };
  } catch (error) {
    throw startupError(error, 'SLACK_BOT_TOKEN', settings);
  }
}

const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type']);

function startupError(
  error: unknown,
  variable: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN',
  settings: NonNullable<Config['slack']>,
): CandorError {
  const code = describeSlackError(error);
  const message = AUTH_ERRORS.has(code)
    ? `Slack rejected ${variable} (${code}). Copy the ${variable === 'SLACK_BOT_TOKEN' ? 'Bot User OAuth Token (xoxb-…) from OAuth & Permissions' : 'App-Level Token (xapp-…, scope connections:write) from Basic Information'} of your Slack app, and reinstall the app to the workspace if it was revoked.`
    : `Could not reach the Slack Web API at ${settings.apiUrl} to check ${variable}: ${code}. Check network access or SLACK_API_URL.`;
  return new CandorError('config_invalid', message, { cause: error });
}
