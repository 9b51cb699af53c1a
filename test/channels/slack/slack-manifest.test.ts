import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { CANDOR_SUBCOMMANDS, HELP_TEXT } from '../../../src/channels/slack/candor-command.js';
import { SLACK_EVENTS_PATH } from '../../../src/channels/slack/slack-channel.js';

interface Manifest {
  display_information: Record<string, string>;
  features: { slash_commands: Array<{ command: string; url?: string; usage_hint: string }>; bot_user: { display_name: string } };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url?: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url?: string };
    socket_mode_enabled: boolean;
  };
}

const read = (name: string) => parse(readFileSync(new URL(`../../../deploy/${name}`, import.meta.url), 'utf8')) as Manifest;
/** The subcommands a manifest's `/candor` usage hint offers: "[ask QUESTION | status]" → ask, status. */
const offered = (m: Manifest) =>
  m.features.slash_commands[0]!.usage_hint.replace(/^\[|\]$/g, '')
    .split('|')
    .map((part) => part.trim().split(/\s+/)[0]!);
const manifest = read('slack-app-manifest.yaml');
const socket = read('slack-app-manifest.socket.yaml');

// The manifests must ask for exactly what the channel uses, and the same in both modes.
describe.each([
  ['slack-app-manifest.yaml', manifest],
  ['slack-app-manifest.socket.yaml', socket],
])('deploy/%s', (_name, m) => {
  it('subscribes to the events the channel answers, with the scopes its Web API calls need', () => {
    expect([...m.settings.event_subscriptions.bot_events].sort()).toEqual([
      'app_mention',
      'message.channels',
      'message.groups',
      'message.im',
      'reaction_added',
      'reaction_removed',
    ]);
    expect(m.features.slash_commands.map((c) => c.command)).toEqual(['/candor']);
    expect(m.settings.interactivity.is_enabled).toBe(true);
    expect([...m.oauth_config.scopes.bot].sort()).toEqual([
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

  it("the /candor usage hint offers exactly the subcommands the command answers to, and the command's help names each", () => {
    expect(offered(m)).toEqual([...CANDOR_SUBCOMMANDS]);
    for (const sub of CANDOR_SUBCOMMANDS) expect(HELP_TEXT).toContain(`/candor ${sub}`);
  });
});

describe('deploy/slack-app-manifest.yaml', () => {
  it('points events, the slash command and interactivity at /slack/events', () => {
    const urls = [
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity.request_url,
      manifest.features.slash_commands[0]!.url,
    ];
    for (const url of urls) expect(new URL(url!).pathname).toBe(SLACK_EVENTS_PATH);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });
});

describe('deploy/slack-app-manifest.socket.yaml', () => {
  it('turns Socket Mode on and names no request URL', () => {
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(socket.settings.event_subscriptions.request_url).toBeUndefined();
    expect(socket.settings.interactivity.request_url).toBeUndefined();
    expect(socket.features.slash_commands[0]!.url).toBeUndefined();
    expect(JSON.stringify(socket)).not.toContain('https://');
  });

  it('is the HTTP manifest but for how Slack reaches Candor', () => {
    const http = structuredClone(manifest);
    delete http.settings.event_subscriptions.request_url;
    delete http.settings.interactivity.request_url;
    for (const c of http.features.slash_commands) delete c.url;
    http.settings.socket_mode_enabled = true;
    expect(socket).toEqual(http);
  });
});
