import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { SLACK_EVENTS_PATH } from '../../../src/channels/slack/slack-channel.js';

// The manifest must ask for exactly what the channel uses.
const manifest = parse(readFileSync(new URL('../../../deploy/slack-app-manifest.yaml', import.meta.url), 'utf8')) as {
  features: { slash_commands: Array<{ command: string; url: string }>; bot_user: { display_name: string } };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
    socket_mode_enabled: boolean;
  };
};

describe('deploy/slack-app-manifest.yaml', () => {
  it('points events, the slash command and interactivity at /slack/events', () => {
    const urls = [
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity.request_url,
      manifest.features.slash_commands[0]!.url,
    ];
    for (const url of urls) expect(new URL(url).pathname).toBe(SLACK_EVENTS_PATH);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('subscribes to the events the channel answers, with the scopes its Web API calls need', () => {
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual([
      'app_mention',
      'message.im',
      'reaction_added',
      'reaction_removed',
    ]);
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(['/candor']);
    expect(manifest.oauth_config.scopes.bot.sort()).toEqual([
      'app_mentions:read',
      'channels:history',
      'chat:write',
      'commands',
      'groups:history',
      'im:history',
      'reactions:read',
      'reactions:write',
      'usergroups:read',
    ]);
  });
});
