import type { webApi } from '@slack/bolt';

import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';

export interface ReactionTarget {
  readonly channel: string;
  readonly timestamp: string;
}

/**
 * Adds `name` to the question after `delayMs` if the reply is not out by
 * then; the returned function cancels the timer or removes the reaction.
 * Reaction failures (missing scope, already reacted) only reach the debug log.
 */
export function workingReaction(
  client: webApi.WebClient,
  target: ReactionTarget,
  options: { delayMs: number; name: string; log: Log },
): () => Promise<void> {
  let added: Promise<boolean> | null = null;
  const timer = setTimeout(() => {
    added = client.reactions.add({ ...target, name: options.name }).then(
      () => true,
      (error: unknown) => {
        options.log('debug', 'slack: could not add the working reaction', { error: describeSlackError(error) });
        return false;
      },
    );
  }, options.delayMs);
  return async () => {
    clearTimeout(timer);
    if (added === null || !(await added)) return;
    await client.reactions.remove({ ...target, name: options.name }).catch((error: unknown) => {
      options.log('debug', 'slack: could not remove the working reaction', { error: describeSlackError(error) });
    });
  };
}

/** A Web API error as a short code: the platform's `error` field when Slack sent one. */
export function describeSlackError(error: unknown): string {
  const data = (error as { data?: { error?: unknown } }).data;
  if (data && typeof data.error === 'string') return data.error;
  return describeError(error);
}
