import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';

import type { ChatServices } from '../chat/chat-services.js';
import { statusReply } from '../chat/status-reply.js';

export const HELP_TEXT = [
  '*Candor* answers questions from the knowledge base, and says "I don\'t know" when the knowledge base does not hold the answer.',
  '• Ask: mention me in a channel (`@Candor What does MediShield Life cover?`) or send me a direct message.',
  '• Every answer lists its sources; a refusal says why and what the knowledge base does cover.',
  "• `/candor status`: knowledge base version, fact count and today's abstention rate.",
  '• `/candor help`: this message.',
].join('\n');

/** `/candor help` and `/candor status`, answered in the ack (ephemeral) within Slack's 3 s. */
export function candorCommand(services: Pick<ChatServices, 'status' | 'config' | 'log'>): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack }) => {
    const sub = command.text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (sub !== 'status') {
      const prefix = sub === '' || sub === 'help' ? '' : `I don't know the command \`${sub.replace(/[<>&`]/g, '')}\`.\n`;
      return ack({ response_type: 'ephemeral', text: `${prefix}${HELP_TEXT}` });
    }
    return ack({ response_type: 'ephemeral', text: await statusReply(services, 'slack') });
  };
}
