import { describeSlackError } from './working-reaction.js';

/** What became of one send, as far as Candor can tell. */
export type SendOutcome =
  | { readonly kind: 'posted'; readonly ts: string }
  /** A 429: Slack did not take it; send again after Retry-After. */
  | { readonly kind: 'rate_limited'; readonly retryAfterMs: number }
  /** Slack refused it for good (a channel-level error), with what to do. */
  | { readonly kind: 'refused'; readonly code: string; readonly hint: string }
  /** It may have been posted: Slack answered with an error (`answered`), or did not answer at all (network, timeout). */
  | { readonly kind: 'unsure'; readonly code: string; readonly answered: boolean };

/** Channel-level Web API errors: the reply is dropped for good with a log line saying what to do. */
const DELIVERY_HINTS: Record<string, string> = {
  not_in_channel: 'invite the bot to the channel (/invite @Candor)',
  channel_not_found: 'the channel was deleted or the bot cannot see it',
  is_archived: 'the channel is archived',
  msg_too_long: 'the reply exceeded Slack limits',
  invalid_blocks: 'Slack rejected the reply blocks',
};

/** Errors of a Web API client made with `retryConfig: { retries: 0 }` and `rejectRateLimitedCalls: true`. */
export async function sendOutcome(send: () => Promise<{ ts?: string }>): Promise<SendOutcome> {
  try {
    const posted = await send();
    return { kind: 'posted', ts: posted.ts ?? '' };
  } catch (error) {
    const { code: type, retryAfter } = error as { code?: unknown; retryAfter?: unknown };
    if (type === 'slack_webapi_rate_limited_error' && typeof retryAfter === 'number') {
      return { kind: 'rate_limited', retryAfterMs: Math.max(0, retryAfter) * 1000 };
    }
    const code = describeSlackError(error);
    const hint = DELIVERY_HINTS[code];
    if (hint !== undefined) return { kind: 'refused', code, hint };
    return { kind: 'unsure', code, answered: type === 'slack_webapi_platform_error' || type === 'slack_webapi_http_error' };
  }
}
