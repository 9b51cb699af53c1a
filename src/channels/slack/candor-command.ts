import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';

import type { Log } from '../../log.js';
import type { Db } from '../../store/open-store.js';
import { formatStatusReport, statusReport } from './status-report.js';

export const HELP_TEXT = [
  '*Candor* answers questions from the knowledge base, and says "I don\'t know" when the knowledge base does not hold the answer.',
  '• Ask: mention me in a channel (`@Candor What does MediShield Life cover?`) or send me a direct message.',
  '• Every answer lists its sources; a refusal says why and what the knowledge base does cover.',
  "• `/candor status`: knowledge base version, fact count and today's abstention rate.",
  '• `/candor help`: this message.',
].join('\n');

/** Slack answers 404 to a slash command not acked within 3 s: the status query gets less. */
const STATUS_BUDGET_MS = 2000;

/** `/candor help` and `/candor status`, answered in the ack (ephemeral). */
export function candorCommand(deps: { db: Db; kb: string; log: Log }): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack }) => {
    const sub = command.text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (sub !== 'status') {
      const prefix = sub === '' || sub === 'help' ? '' : `I don't know the command \`${sub.replace(/[<>&`]/g, '')}\`.\n`;
      return ack({ response_type: 'ephemeral', text: `${prefix}${HELP_TEXT}` });
    }
    let text: string;
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`status took longer than ${STATUS_BUDGET_MS} ms`)), STATUS_BUDGET_MS);
      });
      text = formatStatusReport(await Promise.race([statusReport(deps.db, deps.kb), timeout]).finally(() => clearTimeout(timer)));
    } catch (error) {
      deps.log('error', 'slack: /candor status failed', { error: (error as Error).message });
      text = "I can't read my status right now: the database did not answer in time. Please try again later.";
    }
    return ack({ response_type: 'ephemeral', text });
  };
}
