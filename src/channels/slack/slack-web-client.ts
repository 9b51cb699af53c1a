import { webApi } from '@slack/bolt';

import type { Config } from '../../config.js';
import { CandorError } from '../../kernel/errors.js';
import { describeSlackError } from './working-reaction.js';

export type SlackSettings = NonNullable<Config['slack']>;
/** The bot as auth.test names it. */
export type SlackAuth = { userId: string; botId: string | undefined; team: string };

export interface WebClientTuning {
  /** Web API retries for network errors, 5xx and 429 (each 429 waits its Retry-After first). @default 3 */
  readonly retries?: number;
  /** Web API request timeout. @default 10000 */
  readonly timeoutMs?: number;
}

/**
 * The Web API client's options: Slack's URL, Bolt's logger, the request timeout and retries with backoff. The
 * library's own retries (p-retry) wait each 429's Retry-After, pausing every call of the client, and try again;
 * they suit reads, reactions and cards, where a second try shows nothing twice.
 */
export function webClientOptions(
  settings: SlackSettings,
  logger: webApi.WebClientOptions['logger'],
  options: WebClientTuning,
): webApi.WebClientOptions {
  return {
    slackApiUrl: settings.apiUrl,
    logger,
    timeout: options.timeoutMs ?? 10_000,
    retryConfig: { retries: options.retries ?? 3, factor: 2, minTimeout: 500, maxTimeout: 10_000, randomize: true },
  };
}

/**
 * The client replies are posted with: no retries of its own and a 429 handed back at once (rejectRateLimitedCalls),
 * because a blind second try of chat.postMessage after a timeout or a dropped connection may post the reply twice.
 * postReplyOnce waits the Retry-After itself and looks in the conversation before sending again.
 */
export function posterClient(settings: SlackSettings, clientOptions: webApi.WebClientOptions): webApi.WebClient {
  return new webApi.WebClient(settings.botToken, { ...clientOptions, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
}

export async function checkToken(client: webApi.WebClient, settings: SlackSettings): Promise<SlackAuth> {
  try {
    const auth = await client.auth.test();
    if (!auth.user_id) throw new Error('auth.test returned no user_id: is SLACK_BOT_TOKEN a bot token (xoxb-…)?');
    return { userId: auth.user_id, botId: auth.bot_id, team: auth.team ?? auth.team_id ?? 'unknown' };
  } catch (error) {
    throw startupError(error, 'SLACK_BOT_TOKEN', settings);
  }
}

const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type']);

export function startupError(error: unknown, variable: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN', settings: SlackSettings): CandorError {
  const code = describeSlackError(error);
  const message = AUTH_ERRORS.has(code)
    ? `Slack rejected ${variable} (${code}). Copy the ${variable === 'SLACK_BOT_TOKEN' ? 'Bot User OAuth Token (xoxb-…) from OAuth & Permissions' : 'App-Level Token (xapp-…, scope connections:write) from Basic Information'} of your Slack app, and reinstall the app to the workspace if it was revoked.`
    : `Could not reach the Slack Web API at ${settings.apiUrl} to check ${variable}: ${code}. Check network access or SLACK_API_URL.`;
  return new CandorError('config_invalid', message, { cause: error });
}
