import { createHmac } from 'node:crypto';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { createChatServices } from '../../../src/app/chat-services.js';
import { buildCandor, type Candor } from '../../../src/app/main.js';
import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import { startSlackChannel, type SlackChannel, type SlackChannelOptions } from '../../../src/channels/slack/slack-channel.js';
import { loadConfig } from '../../../src/config.js';
import type { LogLevel } from '../../../src/kernel/log.js';
import { startFakeServer, type FakeServer, type RecordedCall } from '../fake-http.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789';
export const BOT_TOKEN = 'xoxb-test-token';
export const BOT_USER = 'UCANDOR';
export const TEAM = 'T0TEAM';

export interface LogLine {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

/**
 * A fake Slack Web API: auth.test, chat.postMessage, chat.update, chat.postEphemeral, reactions.*,
 * views.open and usergroups.users.list (no members) succeed unless a test says otherwise.
 */
export function startFakeSlack(): Promise<FakeServer> {
  let ts = 1_700_000_000;
  let views = 0;
  return startFakeServer((call) => {
    switch (call.path) {
      case '/api/auth.test':
        return {
          body: {
            ok: true,
            url: 'https://candor-test.slack.com/',
            team: 'Candor Test',
            team_id: TEAM,
            user: 'candor',
            user_id: BOT_USER,
            bot_id: 'BCANDOR',
          },
        };
      case '/api/chat.postMessage':
        ts += 1;
        return { body: { ok: true, channel: call.body.channel, ts: `${ts}.000100`, message: { text: call.body.text } } };
      case '/api/reactions.add':
      case '/api/reactions.remove':
      case '/api/chat.postEphemeral':
        return { body: { ok: true } };
      case '/api/chat.update':
        return { body: { ok: true, channel: call.body.channel, ts: call.body.ts } };
      case '/api/views.open':
        views += 1;
        return { body: { ok: true, view: { ...(call.body.view as object), id: `V0VIEW${views}` } } };
      case '/api/usergroups.users.list':
        return { body: { ok: true, users: [] } };
      default:
        return { body: { ok: false, error: 'unknown_method' } };
    }
  });
}

export interface SlackRig {
  readonly app: Candor;
  readonly slack: FakeServer;
  readonly channel: SlackChannel;
  readonly server: RunningServer;
  readonly spans: InMemorySpanExporter;
  readonly processor: SimpleSpanProcessor;
  readonly logs: LogLine[];
  readonly eventsUrl: string;
  close(): Promise<void>;
}

/** The real thing: buildCandor (store from `env`), the Slack channel's route on Candor's HTTP server, a fake Web API. */
export async function startSlackRig(
  options: { env?: Record<string, string>; channel?: SlackChannelOptions; slack?: FakeServer; telemetry?: boolean } = {},
): Promise<SlackRig> {
  const slack = options.slack ?? (await startFakeSlack());
  const config = loadConfig({
    CANDOR_DATA_DIR: 'memory://',
    LOG_LEVEL: 'debug',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: `${slack.url}/api/`,
    ...options.env,
  });
  const logs: LogLine[] = [];
  const spans = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(spans);
  const app = await buildCandor(config, {
    ...(options.telemetry === false ? { telemetry: false as const } : { spanProcessors: [processor] }),
    log: (level, message, fields = {}) => void logs.push({ level, message, fields }),
  });
  const channel = await startSlackChannel(createChatServices(app), { reactionDelayMs: 60_000, retries: 2, ...options.channel });
  const server = await startHttpServer(channel.route ? [channel.route] : [], { host: '127.0.0.1', port: 0, log: app.log });
  return {
    app,
    slack,
    channel,
    server,
    spans,
    processor,
    logs,
    eventsUrl: `${server.url}/slack/events`,
    async close() {
      await server.stop(100);
      await channel.stop(2000);
      await app.close();
      if (!options.slack) await slack.close();
    },
  };
}

/** Slack's v0 signature: HMAC-SHA256 over `v0:{timestamp}:{body}` with the signing secret. */
export function sign(body: string, timestamp: number, secret = SIGNING_SECRET): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SendOptions {
  readonly timestamp?: number;
  readonly signature?: string;
  readonly retryNum?: number;
  readonly contentType?: string;
}

/** POSTs a raw body to /slack/events signed as Slack would (or as a test forges it). */
export function sendSigned(url: string, body: string, options: SendOptions = {}): Promise<Response> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': options.signature ?? sign(body, timestamp),
      ...(options.retryNum !== undefined ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' } : {}),
    },
    body,
  });
}

let seq = 0;

export interface EventSpec {
  readonly type?: 'app_mention' | 'message';
  readonly text: string;
  readonly eventId?: string;
  readonly channel?: string;
  readonly user?: string;
  readonly ts?: string;
  readonly threadTs?: string;
  readonly extra?: Record<string, unknown>;
}

/** An Events API envelope as Slack sends it. */
export function slackEvent(spec: EventSpec): { body: string; eventId: string; ts: string; channel: string } {
  seq += 1;
  const eventId = spec.eventId ?? `Ev${Date.now().toString(36).toUpperCase()}${seq}`;
  const ts = spec.ts ?? `${1_700_100_000 + seq}.00${String(seq).padStart(4, '0')}`;
  const type = spec.type ?? 'app_mention';
  const channel = spec.channel ?? (type === 'message' ? 'D0DIRECT' : 'C0GENERAL');
  const event = {
    type,
    user: spec.user ?? 'U0ASKER',
    text: spec.text,
    ts,
    channel,
    event_ts: ts,
    team: TEAM,
    ...(type === 'message' ? { channel_type: 'im' } : {}),
    ...(spec.threadTs ? { thread_ts: spec.threadTs } : {}),
    ...spec.extra,
  };
  const envelope = {
    token: 'legacy-verification-token',
    team_id: TEAM,
    api_app_id: 'A0CANDOR',
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
  return { body: JSON.stringify(envelope), eventId, ts, channel };
}

/** A `/candor` slash command as Slack posts it (form-encoded), from the channel and with the text given. */
export function slashCommand(spec: { text: string; channel?: string; trigger?: string; responseUrl: string; user?: string }): string {
  const channel = spec.channel ?? 'C0GENERAL';
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: TEAM,
    team_domain: 'candor-test',
    channel_id: channel,
    channel_name: channel === 'C0GENERAL' ? 'general' : channel.toLowerCase(),
    user_id: spec.user ?? 'U0ASKER',
    user_name: 'asker',
    command: '/candor',
    text: spec.text,
    api_app_id: 'A0CANDOR',
    is_enterprise_install: 'false',
    response_url: spec.responseUrl,
    trigger_id: spec.trigger ?? '1.2.3',
  }).toString();
}

/** The fake Web API of slowSlack. */
export interface SlowSlack extends FakeServer {
  /** While set, each chat.postMessage is accepted (and answered) `acceptMs` after it arrives; else at once. */
  slow: boolean;
  /** The posts Slack accepted, in order: what conversations.replies and .history show. */
  readonly accepted: RecordedCall[];
  /** Posts that arrived and are not accepted yet stay so until `thaw` (as if Slack stalled on them). */
  freeze(): RecordedCall[];
  /** Accepts the frozen posts `afterMs` from now (those `thaw` already timed keep their time). */
  thaw(afterMs: number): void;
}

/**
 * Slack's Web API, slow to accept replies while `slow` is set — a post is accepted when its time comes even if
 * the caller has gone meanwhile — and showing what was accepted (with metadata), as Slack does: a reply still
 * being accepted is not in the thread yet. With `socketUrl`, apps.connections.open hands out that Socket Mode URL.
 */
export async function slowSlack(socketUrl?: string, acceptMs = 3_000): Promise<SlowSlack> {
  const accepted: RecordedCall[] = [];
  const pending = new Map<RecordedCall, NodeJS.Timeout | null>();
  const accept = (call: RecordedCall) => {
    pending.delete(call);
    accepted.push(call);
  };
  const slack: SlowSlack = Object.assign(await startFakeSlack(), {
    slow: true,
    accepted,
    freeze() {
      for (const [call, timer] of pending) {
        if (timer) clearTimeout(timer);
        pending.set(call, null);
      }
      return [...pending.keys()];
    },
    thaw(afterMs: number) {
      for (const [call, timer] of pending)
        if (timer === null)
          pending.set(
            call,
            setTimeout(() => accept(call), afterMs),
          );
    },
  });
  const posted = (channel: unknown) => accepted.filter((c) => c.body.channel === channel);
  const asMessage = (c: RecordedCall, i: number) => ({
    ts: `posted-${i}`,
    text: c.body.text,
    thread_ts: c.body.thread_ts,
    metadata: c.body.metadata,
  });
  slack.use((call) => {
    if (socketUrl && call.path === '/api/apps.connections.open') return { body: { ok: true, url: socketUrl } };
    if (call.path === '/api/chat.postMessage') {
      if (!slack.slow) accept(call);
      else
        pending.set(
          call,
          setTimeout(() => accept(call), acceptMs),
        );
      return { delayMs: slack.slow ? acceptMs : 0, body: { ok: true, channel: call.body.channel, ts: `${Date.now()}.000100` } };
    }
    if (call.path === '/api/conversations.replies') {
      return {
        body: {
          ok: true,
          messages: posted(call.body.channel)
            .map(asMessage)
            .filter((m) => m.thread_ts === call.body.ts),
        },
      };
    }
    if (call.path === '/api/conversations.history') return { body: { ok: true, messages: posted(call.body.channel).map(asMessage) } };
    return undefined;
  });
  return slack;
}
