import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { channelToken, OPENID_METADATA_PATH, openIdResponse, signingKey } from './bot-framework-tokens.js';

export const FAKE_BOT_USER = 'UFUZZBOT';
export const FAKE_TEAM = 'TFUZZ';

export interface FakePlatforms {
  /** http://127.0.0.1:PORT; Slack's Web API is under /api/, the Bot Framework connector under /v3/. */
  readonly url: string;
  /** Calls received, by Slack method or connector route. */
  readonly calls: Readonly<Record<string, number>>;
  /** The Bot Framework's OpenID metadata, publishing the one key `channelToken` signs with (endorsed for msteams). */
  readonly openIdMetadataUrl: string;
  /** A valid channel → bot token for `appId` and an activity's serviceUrl. */
  channelToken(appId: string, serviceUrl: string, nowSeconds: number): string;
  close(): Promise<void>;
}

/**
 * What Candor talks to outside the process, as one local server that agrees to
 * everything: Slack's Web API (every method answers `{ ok: true, … }`) and the
 * Bot Framework connector (every activity gets an id) and its OpenID endpoint,
 * so answers the fuzzer provokes are delivered and nothing leaves the machine.
 */
export async function startFakePlatforms(): Promise<FakePlatforms> {
  const calls: Record<string, number> = {};
  const key = signingKey('candor-fuzz-key');
  let url = '';
  let ts = 1_700_000_000;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
      const method = path.startsWith('/api/') ? path.slice(5) : path.startsWith('/v3/') ? 'connector' : path;
      calls[method] = (calls[method] ?? 0) + 1;
      ts += 1;
      const body = openIdResponse(url, path, [key]) ?? answer(method, `${ts}.000100`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    calls,
    openIdMetadataUrl: `${url}${OPENID_METADATA_PATH}`,
    channelToken: (appId, serviceUrl, now) => channelToken(key, { aud: appId, serviceUrl, now }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(method: string, ts: string): Record<string, unknown> {
  switch (method) {
    case 'auth.test':
      return {
        ok: true,
        url: 'https://fuzz.slack.invalid/',
        team: 'Fuzz',
        team_id: FAKE_TEAM,
        user: 'candor',
        user_id: FAKE_BOT_USER,
        bot_id: 'BFUZZ',
      };
    case 'chat.postMessage':
    case 'chat.update':
      return { ok: true, channel: 'C0FUZZ', ts, message: { ts, text: '' } };
    case 'chat.postEphemeral':
      return { ok: true, message_ts: ts };
    case 'usergroups.users.list':
      return { ok: true, users: [] };
    case 'connector':
      return { id: `activity-${ts}` };
    default:
      return { ok: true };
  }
}
