import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { createChatServices } from '../../../src/app/chat-services.js';
import { buildCandor, type Candor } from '../../../src/app/main.js';
import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import type { TeamsReaction } from '../../../src/channels/teams/candor-teams-bot.js';
import { startTeamsChannel, type TeamsChannel, type TeamsChannelOptions } from '../../../src/channels/teams/teams-channel.js';
import { loadConfig } from '../../../src/config.js';
import type { LogLevel } from '../../../src/kernel/log.js';
import { startFakeServer, waitFor, type FakeServer, type RecordedCall } from '../fake-http.js';

export const BOT_ID = '28:candor-bot-app-id';
export const TENANT = 'tenant-0001';

export interface TeamsRig {
  readonly app: Candor;
  readonly connector: FakeConnector;
  readonly channel: TeamsChannel;
  readonly server: RunningServer;
  readonly spans: InMemorySpanExporter;
  readonly processor: SimpleSpanProcessor;
  readonly logs: Array<{ level: LogLevel; message: string; fields: Record<string, unknown> }>;
  readonly reactions: TeamsReaction[];
  readonly messagesUrl: string;
  close(): Promise<void>;
}

export interface FakeConnector extends FakeServer {
  /** The activity id the connector gave a message it took (a send or a reply), or undefined. */
  idOf(call: RecordedCall): string | undefined;
}

/** A fake Bot Framework connector: every reply or send gets an id back; an update (PUT) keeps its id. */
export async function startFakeConnector(): Promise<FakeConnector> {
  let n = 0;
  const ids = new WeakMap<RecordedCall, string>();
  const server = await startFakeServer((call) => {
    if (call.method === 'POST' && /^\/v3\/conversations\/[^/]+\/activities(\/[^/]+)?$/.test(call.path)) {
      n += 1;
      ids.set(call, `reply-${n}`);
      return { body: { id: `reply-${n}` } };
    }
    if (call.method === 'PUT' && /^\/v3\/conversations\/[^/]+\/activities\/[^/]+$/.test(call.path)) {
      return { body: { id: decodeURIComponent(call.path.split('/').pop() ?? '') } };
    }
    return undefined;
  });
  return { ...server, idOf: (call) => ids.get(call) };
}

/** The real app (PGlite in memory) with the Teams route on Candor's HTTP server. */
export async function startTeamsRig(
  options: {
    env?: Record<string, string>;
    envFor?: (connectorUrl: string) => Record<string, string>;
    channel?: TeamsChannelOptions;
    telemetry?: boolean;
  } = {},
): Promise<TeamsRig> {
  const connector = await startFakeConnector();
  const config = loadConfig({
    CANDOR_DATA_DIR: 'memory://',
    LOG_LEVEL: 'debug',
    CANDOR_TEAMS_ALLOW_ANONYMOUS: 'true',
    ...options.env,
    ...options.envFor?.(connector.url),
  });
  const logs: TeamsRig['logs'] = [];
  const reactions: TeamsReaction[] = [];
  const spans = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(spans);
  const app = await buildCandor(config, {
    ...(options.telemetry === false ? { telemetry: false as const } : { spanProcessors: [processor] }),
    log: (level, message, fields = {}) => void logs.push({ level, message, fields }),
  });
  const channel = startTeamsChannel(createChatServices(app), {
    typingDelayMs: 60_000,
    onReaction: (r) => void reactions.push(r),
    ...options.channel,
  });
  const server = await startHttpServer([channel.route], { host: '127.0.0.1', port: 0, log: app.log });
  return {
    app,
    connector,
    channel,
    server,
    spans,
    processor,
    logs,
    reactions,
    messagesUrl: `${server.url}/api/messages`,
    async close() {
      await server.stop(100);
      await channel.stop(2000);
      await app.close();
      await connector.close();
    },
  };
}

let seq = 0;

export interface ActivitySpec {
  readonly text?: string;
  readonly type?: string;
  readonly conversationId?: string;
  readonly conversationType?: 'personal' | 'channel' | 'groupChat';
  readonly mention?: boolean;
  readonly id?: string;
  readonly extra?: Record<string, unknown>;
}

/** A Bot Framework activity as Teams sends it, with serviceUrl pointing at the fake connector. */
export function teamsActivity(
  serviceUrl: string,
  spec: ActivitySpec,
): { activity: Record<string, unknown>; id: string; conversationId: string } {
  seq += 1;
  const id = spec.id ?? `17000000${String(seq).padStart(5, '0')}`;
  const conversationType = spec.conversationType ?? 'personal';
  const conversationId =
    spec.conversationId ?? (conversationType === 'personal' ? `a:1personal-chat-${seq}` : `19:general${seq}@thread.tacv2;messageid=${id}`);
  const mention = spec.mention ?? conversationType !== 'personal';
  const activity: Record<string, unknown> = {
    type: spec.type ?? 'message',
    id,
    timestamp: new Date().toISOString(),
    serviceUrl: `${serviceUrl}/`,
    channelId: 'msteams',
    from: { id: '29:1asker-user-id', name: 'Asker', aadObjectId: 'aad-asker-0001' },
    conversation: { id: conversationId, conversationType, tenantId: TENANT, ...(conversationType === 'channel' ? { isGroup: true } : {}) },
    recipient: { id: BOT_ID, name: 'Candor' },
    textFormat: 'plain',
    locale: 'en-US',
    channelData: {
      tenant: { id: TENANT },
      ...(conversationType === 'channel' ? { teamsChannelId: '19:general@thread.tacv2', teamsTeamId: '19:team@thread.tacv2' } : {}),
    },
    ...(spec.text !== undefined ? { text: mention ? `<at>Candor</at> ${spec.text}` : spec.text } : {}),
    ...(mention ? { entities: [{ type: 'mention', text: '<at>Candor</at>', mentioned: { id: BOT_ID, name: 'Candor' } }] } : {}),
    ...spec.extra,
  };
  return { activity, id, conversationId };
}

export function post(url: string, activity: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(activity) });
}

/** The connector path a reply to `activityId` in `conversationId` goes to. */
/**
 * The replies to one activity, once there are `count` of them: answers come from the inbox's worker, after
 * the activity was acknowledged.
 */
export async function repliesTo(
  rig: Pick<TeamsRig, 'connector'>,
  conversationId: string,
  activityId: string,
  count = 1,
  timeoutMs = 5_000,
) {
  const calls = () => rig.connector.callsTo(replyPath(conversationId, activityId)).filter((c) => c.body.type === 'message');
  return waitFor(() => calls().length >= count && calls(), timeoutMs, `${count} replies to ${activityId}`);
}

export function replyPath(conversationId: string, activityId: string): string {
  return `/v3/conversations/${encodeURIComponent(conversationId)}/activities/${encodeURIComponent(activityId)}`;
}
