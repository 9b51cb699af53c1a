import { createHmac } from 'node:crypto';

import { framing } from './api-cases.js';
import { junkHeaderValue, type CaseMaker, type FuzzContext, type FuzzRequest } from './fuzz-request.js';
import { contentTypeHeaders, extraHeaders } from './header-junk.js';
import { junkString, junkValue, nastyString, repeatedMarkup, uriEncode, wrongJson } from './junk.js';
import type { Prng } from './prng.js';
import { slackPayloads } from './slack-payloads.js';

const PATH = '/slack/events';

/** Slack's v0 signature over what Bolt hashes: the body read as UTF-8 text. */
export function slackSignature(secret: string, timestamp: string, body: string | Buffer): string {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${text}`).digest('hex')}`;
}

/** Sometimes the retry headers Slack adds on a redelivery, sometimes junk in them. */
function retryHeaders(rng: Prng): FuzzRequest['headers'] {
  if (rng.chance(0.85)) return [];
  return [
    ['X-Slack-Retry-Num', rng.pick(['1', '3', '-1', 'abc', '1e9', '', '99999999999999999999'])],
    ['X-Slack-Retry-Reason', rng.pick(['http_timeout', '', junkHeaderValue(rng)])],
  ];
}

/** A POST to /slack/events signed with the real secret (so the code behind the check runs), or unsigned when no secret is known. */
function signed(ctx: FuzzContext, kind: string, body: string | Buffer, type: 'json' | 'form'): FuzzRequest {
  const { rng, secrets } = ctx;
  const timestamp = String(ctx.nowSeconds());
  const right = type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  const signature = secrets.slackSigningSecret ? slackSignature(secrets.slackSigningSecret, timestamp, body) : `v0=${'0'.repeat(64)}`;
  return {
    endpoint: PATH,
    kind,
    method: 'POST',
    target: PATH,
    headers: [
      ...contentTypeHeaders(rng, right, 0.9),
      ['X-Slack-Request-Timestamp', timestamp],
      ['X-Slack-Signature', signature],
      ...retryHeaders(rng),
      ...extraHeaders(rng),
    ],
    body,
    ...(rng.chance(0.9) ? { framing: 'length' as const } : framing(rng)),
  };
}

/** Signatures and timestamps that must all be refused (401) before any payload is read. */
function forged(ctx: FuzzContext): FuzzRequest {
  const { rng, secrets } = ctx;
  const body = rng.chance(0.7) ? JSON.stringify(slackPayloads.question(ctx)) : junkString(rng, 2_000);
  const now = ctx.nowSeconds();
  const secret = secrets.slackSigningSecret ?? 'unknown';
  const headers = rng.pick<() => FuzzRequest['headers']>([
    () => [],
    () => [['X-Slack-Signature', slackSignature(secret, String(now), body)]],
    () => [['X-Slack-Request-Timestamp', String(now)]],
    () => [
      ['X-Slack-Request-Timestamp', String(now)],
      ['X-Slack-Signature', `v0=${rng.bytes(32).toString('hex')}`],
    ],
    () => [
      ['X-Slack-Request-Timestamp', String(now)],
      ['X-Slack-Signature', rng.pick(['', 'v0=', 'v1=abc', 'v0=zz', `v0=${'a'.repeat(10_000)}`, junkHeaderValue(rng)])],
    ],
    () => [
      [
        'X-Slack-Request-Timestamp',
        rng.pick(['', 'Infinity', '-Infinity', 'NaN', '-1', '0', '1e400', '0x10', ' 1', String(now + 10_000_000)]),
      ],
      ['X-Slack-Signature', slackSignature(secret, String(now), body)],
    ],
    () => [
      ['X-Slack-Request-Timestamp', String(now - 600)],
      ['X-Slack-Signature', slackSignature(secret, String(now - 600), body)],
    ],
    () => [
      ['X-Slack-Request-Timestamp', String(now)],
      ['X-Slack-Request-Timestamp', String(now - 1)],
      ['X-Slack-Signature', slackSignature(secret, String(now), body)],
    ],
    () => [
      ['X-Slack-Request-Timestamp', String(now)],
      ['X-Slack-Signature', slackSignature(secret, String(now), body)],
      ['X-Slack-Signature', 'v0=00'],
    ],
    () => [
      ['X-Slack-Request-Timestamp', String(now)],
      ['X-Slack-Signature', slackSignature(`${secret}x`, String(now), body)],
    ],
  ])();
  return {
    endpoint: PATH,
    kind: 'slack.forged',
    method: 'POST',
    target: PATH,
    headers: [['Content-Type', 'application/json'], ...headers],
    body,
  };
}

/** Correctly signed over timestamps Slack would never send: odd numbers must not break the staleness check. */
function oddTimestamp(ctx: FuzzContext): FuzzRequest {
  const { rng, secrets } = ctx;
  const now = ctx.nowSeconds();
  const timestamp = rng.pick(['Infinity', 'NaN', '-1', '0', '1e10', `${now}.5`, ` ${now}`, `0${now}`, `${now + 86_400}`, '', `${now}abc`]);
  const body = JSON.stringify(slackPayloads.question(ctx));
  const signature = slackSignature(secrets.slackSigningSecret ?? 'unknown', timestamp, body);
  return {
    endpoint: PATH,
    kind: 'slack.odd-timestamp',
    method: 'POST',
    target: PATH,
    headers: [
      ['Content-Type', 'application/json'],
      ['X-Slack-Request-Timestamp', timestamp],
      ['X-Slack-Signature', signature],
    ],
    body,
  };
}

const form = (fields: Record<string, unknown>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${uriEncode(k)}=${uriEncode(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

/** POST /slack/events: forged and stale requests, and validly signed requests whose payloads are wrong in every way. */
export const slackCases: Record<string, CaseMaker> = {
  'slack.forged': forged,
  'slack.odd-timestamp': oddTimestamp,
  'slack.signed.shape': (ctx) => signed(ctx, 'slack.signed.shape', wrongJson(ctx.rng, 900_000), 'json'),
  'slack.signed.envelope': (ctx) => signed(ctx, 'slack.signed.envelope', JSON.stringify(slackPayloads.brokenEnvelope(ctx)), 'json'),
  'slack.signed.event': (ctx) => signed(ctx, 'slack.signed.event', JSON.stringify(slackPayloads.brokenMessage(ctx)), 'json'),
  'slack.signed.question': (ctx) => signed(ctx, 'slack.signed.question', JSON.stringify(slackPayloads.question(ctx)), 'json'),
  'slack.signed.huge-text': (ctx) =>
    signed(ctx, 'slack.signed.huge-text', JSON.stringify(slackPayloads.question(ctx, repeatedMarkup(ctx.rng, 900_000))), 'json'),
  'slack.signed.other-event': (ctx) => signed(ctx, 'slack.signed.other-event', JSON.stringify(slackPayloads.otherEvent(ctx)), 'json'),
  'slack.signed.url-verification': ({ rng, ...rest }) => {
    const challenge = rng.pick<unknown>([undefined, null, 5, {}, [], '', 'x'.repeat(rng.between(1, 100_000)), nastyString(rng)]);
    return signed(
      { rng, ...rest },
      'slack.signed.url-verification',
      JSON.stringify({ type: 'url_verification', token: 't', challenge }),
      'json',
    );
  },
  'slack.signed.interactive': (ctx) => {
    const payload = slackPayloads.interactive(ctx);
    const body = ctx.rng.pick<() => string>([
      () => form({ payload }),
      () => form({ payload: JSON.stringify(payload).slice(0, ctx.rng.int(200)) }),
      () => `payload=${ctx.rng.pick(['', '%', '%E0%A4%A', 'null', '[]', '0', 'notjson', '%7B', '"x"'])}`,
      () => `payload=${uriEncode(JSON.stringify(payload))}&payload=${uriEncode('{}')}`,
    ])();
    return signed(ctx, 'slack.signed.interactive', body, 'form');
  },
  'slack.signed.command': (ctx) => signed(ctx, 'slack.signed.command', slackPayloads.command(ctx), 'form'),
  'slack.signed.form-junk': (ctx) => {
    const body = ctx.rng.pick<() => string | Buffer>([
      () => 'ssl_check=1',
      () => 'ssl_check=1&token=x',
      () => '&&&',
      () => '=',
      () => '%',
      () => 'a=%ZZ&b=%E0%A4%A',
      () => `type=event_callback&event=${uriEncode('{}')}`,
      () => `${'a[b]'.repeat(200)}=1`,
      () => `${'x[]=1&'.repeat(2_000)}`,
      () => `__proto__[polluted]=1&constructor[prototype][x]=1`,
      () => junkString(ctx.rng, 20_000),
      () => ctx.rng.bytes(ctx.rng.between(1, 4_000)),
    ])();
    return signed(ctx, 'slack.signed.form-junk', body, 'form');
  },
  'slack.signed.json-junk': (ctx) => signed(ctx, 'slack.signed.json-junk', JSON.stringify(junkValue(ctx.rng, 5)), 'json'),
  'slack.method': ({ rng }) => ({
    endpoint: PATH,
    kind: 'slack.method',
    method: rng.pick(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']),
    target: rng.pick([PATH, `${PATH}?ssl_check=1`, `${PATH}/`]),
    headers: [],
  }),
};
