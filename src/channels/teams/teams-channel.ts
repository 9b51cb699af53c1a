import { CloudAdapter, ConfigurationBotFrameworkAuthentication, ConfigurationServiceClientCredentialFactory } from 'botbuilder';

import { withEmoji } from '../../core/review/review-tasks.js';
import { CandorError } from '../../errors.js';
import type { App as CandorApp } from '../../main.js';
import type { Route } from '../http/api-routes.js';
import { readJsonBody } from '../http/read-json-body.js';
import { chatDeps } from '../slack/answer-once.js';
import { CandorTeamsBot, type TeamsReaction } from './candor-teams-bot.js';
import { shimRequest, shimResponse } from './node-http-shim.js';
import { postPendingTeamsCards, postTeamsSummary, type TeamsReviewDeps } from './teams-review.js';

export const TEAMS_MESSAGES_PATH = '/api/messages';

export type TeamsHost = Pick<CandorApp, 'config' | 'store' | 'ask' | 'log'>;

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
  /** Waits (up to `graceMs`) for turns in flight. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The Teams channel: Bot Framework activities at POST /api/messages through
 * botbuilder's CloudAdapter. With MICROSOFT_APP_ID set every request must carry
 * a valid Bot Framework JWT (401 otherwise); without it the adapter runs
 * anonymously, which is allowed only when the development setting says so.
 */
export function startTeamsChannel(host: TeamsHost, options: TeamsChannelOptions = {}): TeamsChannel {
  const settings = host.config.teams;
  if (!settings) throw new CandorError('config_invalid', 'The Teams channel is off: set MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD.');
  const anonymous = settings.appId === undefined;
  if (anonymous && !settings.allowAnonymous)
    throw new CandorError('config_invalid', 'MICROSOFT_APP_ID: missing (or set CANDOR_TEAMS_ALLOW_ANONYMOUS=true for local development)');
  const credentials = new ConfigurationServiceClientCredentialFactory(
    anonymous
      ? {}
      : {
          MicrosoftAppId: settings.appId,
          MicrosoftAppPassword: settings.appPassword,
          MicrosoftAppType: settings.appType,
          MicrosoftAppTenantId: settings.tenantId,
        },
  );
  const auth = new ConfigurationBotFrameworkAuthentication(
    anonymous ? {} : { MicrosoftAppId: settings.appId, MicrosoftAppTenantId: settings.tenantId },
    credentials,
  );
  const adapter = new CloudAdapter(auth);
  adapter.onTurnError = async (_context, error) => {
    host.log('error', 'teams: turn failed', { error: error.message });
  };
  const review: TeamsReviewDeps = {
    db: host.store.db,
    log: host.log,
    reviewers: host.config.review.reviewers,
    tasks: withEmoji(host.config.review.emoji),
    conversation: host.config.review.teamsConversation,
  };
  const bot = new CandorTeamsBot({
    ...chatDeps(host),
    typingDelayMs: options.typingDelayMs ?? 1500,
    onReaction: options.onReaction,
    review,
  });
  if (anonymous) {
    host.log(
      'warn',
      'teams channel runs WITHOUT authentication (CANDOR_TEAMS_ALLOW_ANONYMOUS=true): anyone who can reach /api/messages can make the bot answer and choose where it posts. Use for local development only; set MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD in production.',
    );
  }
  host.log('info', 'teams channel on', { path: TEAMS_MESSAGES_PATH, auth: anonymous ? 'anonymous' : settings.appType });

  const inFlight = new Set<Promise<unknown>>();
  const route: Route = async (req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== TEAMS_MESSAGES_PATH) return false;
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return true;
    }
    const body = await readJsonBody(req, host.config.http.maxBodyBytes);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new CandorError('input_invalid', 'The body must be a Bot Framework activity (a JSON object).', { status: 400 });
    }
    // CloudAdapter authenticates (401), runs the turn (replies go to the activity's serviceUrl) and answers.
    const turn = adapter.process(shimRequest(req, body as Record<string, unknown>), shimResponse(res), (context) => bot.run(context));
    inFlight.add(turn);
    try {
      await turn;
    } finally {
      inFlight.delete(turn);
    }
    return true;
  };
  return {
    route,
    anonymous,
    postPendingReviews: () => postPendingTeamsCards(adapter, settings.appId ?? '', review),
    postReviewSummary: (text) => postTeamsSummary(adapter, settings.appId ?? '', review, text),
    async stop(graceMs = 10_000) {
      const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
    },
  };
}
