import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';

import { describeError } from '../../kernel/errors.js';
import { describeRoute, type ChannelRoute, type Place } from '../chat/channel-routes.js';
import type { ChatServices } from '../chat/chat-services.js';
import { statusReply } from '../chat/status-reply.js';
import { commandPayload } from './slack-inbox.js';

/** What `/candor` answers to, as the Slack app manifests' usage hint lists them (deploy/slack-app-manifest*.yaml). */
export const CANDOR_SUBCOMMANDS = ['ask', 'status', 'here', 'help'] as const;

export const HELP_TEXT = [
  '*Candor* answers questions from the knowledge base, and says "I don\'t know" when the knowledge base does not hold the answer.',
  '• Ask: mention me in a channel (`@Candor What does MediShield Life cover?`) or send me a direct message. Ask a follow-up in the same thread and I read it with the question before.',
  '• `/candor ask QUESTION`: an answer only you see.',
  '• Every answer lists its sources; a refusal says why and what the knowledge base does cover.',
  "• `/candor status`: which knowledge base answers here, its version, fact count and today's abstention rate.",
  "• `/candor here`: this conversation's id, for the settings that name it (review cards, experts, the channel map).",
  '• `/candor help`: this message.',
].join('\n');

export interface CandorCommandDeps extends Pick<ChatServices, 'status' | 'config' | 'log'> {
  /** What answers in a place for a user (the channel map, user groups included). */
  readonly route: (place: Place, user: string) => Promise<ChannelRoute>;
  /** Stores `/candor ask` in the inbox; resolves once stored. */
  readonly enqueueAsk: (command: AskCommand, kbs: readonly string[]) => Promise<void>;
}

export interface AskCommand {
  readonly triggerId: string;
  readonly text: string;
  readonly teamId: string;
  readonly channelId: string;
  readonly userId: string;
  readonly responseUrl: string;
}

/**
 * `/candor help | status | ask QUESTION | here`, answered in the ack (ephemeral) within Slack's 3 s. `ask`
 * stores the question before the ack (as every question is) and answers it ephemerally through the
 * command's response URL, by the same gate and recording as any other question.
 */
export function candorCommand(deps: CandorCommandDeps): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack }) => {
    const text = command.text.trim();
    const sub = text.split(/\s+/)[0]?.toLowerCase() ?? '';
    const place: Place = {
      platform: 'slack',
      direct: command.channel_name === 'directmessage' || command.channel_id.startsWith('D'),
      ids: [command.channel_id, command.team_id],
    };
    if (sub === 'status') {
      const route = await deps.route(place, command.user_id);
      return ack({
        response_type: 'ephemeral',
        text: `${describeRoute(route)}\n${await statusReply(deps, 'slack', undefined, route.kbs)}`,
      });
    }
    if (sub === 'here') return ack({ response_type: 'ephemeral', text: hereText(command.channel_id, command.team_id, place.direct) });
    if (sub === 'ask') {
      const question = text.slice(3).trim();
      if (question === '')
        return ack({ response_type: 'ephemeral', text: 'Ask a question after `ask`: `/candor ask How do I claim for a hospital stay?`' });
      try {
        const route = await deps.route(place, command.user_id);
        await deps.enqueueAsk(
          {
            triggerId: command.trigger_id,
            text: question,
            teamId: command.team_id,
            channelId: command.channel_id,
            userId: command.user_id,
            responseUrl: command.response_url,
          },
          route.kbs,
        );
      } catch (error) {
        deps.log('error', 'slack: could not store /candor ask', { error: describeError(error) });
        return ack({
          response_type: 'ephemeral',
          text: "I can't take questions right now because part of the system is unavailable. Please try again later.",
        });
      }
      return ack({ response_type: 'ephemeral', text: 'Looking in the knowledge base… (only you will see the answer)' });
    }
    const known = sub === '' || (CANDOR_SUBCOMMANDS as readonly string[]).includes(sub);
    const prefix = known ? '' : `I don't know the command \`${sub.replace(/[<>&`]/g, '')}\`.\n`;
    return ack({ response_type: 'ephemeral', text: `${prefix}${HELP_TEXT}` });
  };
}

/** `/candor here`: the ids an admin copies into the settings that name this conversation. */
function hereText(channelId: string, teamId: string, direct: boolean): string {
  if (direct)
    return `This is a direct message (id \`${channelId}\`, workspace \`${teamId}\`). Direct messages are mapped as a whole: \`{"slack":"dm","kb":"NAME"}\` in CANDOR_CHANNELS.`;
  return [
    `This channel's id is \`${channelId}\` (workspace \`${teamId}\`). Use it in:`,
    `• CANDOR_CHANNELS, to choose the knowledge base that answers here: \`{"slack":"${channelId}","kb":"NAME"}\``,
    `• CANDOR_REVIEW_SLACK_CHANNEL=${channelId}, for review cards`,
    `• CANDOR_EXPERTS, for questions to experts: \`{"kb":"NAME","slack":"${channelId}","people":[…]}\``,
    'Invite me here first (`/invite @Candor`).',
  ].join('\n');
}

/** Stores `/candor ask` under its trigger id (Slack sends each command once) and wakes the inbox worker. */
export function enqueueCommand(
  services: Pick<ChatServices, 'inbox' | 'config' | 'log'>,
  wake: () => void,
): CandorCommandDeps['enqueueAsk'] {
  return async (command, kbs) => {
    const fresh = await services.inbox.put({
      channel: 'slack',
      eventId: `command:${command.triggerId}`,
      payload: commandPayload(command, services.config.telemetry.userHashSalt, kbs),
    });
    if (fresh) wake();
  };
}
