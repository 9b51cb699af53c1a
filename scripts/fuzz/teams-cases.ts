import { framing } from './api-cases.js';
import { junkHeaderValue, type CaseMaker, type FuzzContext, type FuzzRequest } from './fuzz-request.js';
import { contentTypeHeaders, extraHeaders } from './header-junk.js';
import { junkString, junkValue, nastyString, repeatedMarkup, wrongJson } from './junk.js';
import type { Prng } from './prng.js';

const PATH = '/api/messages';
const BOT_ID = '28:candor-fuzz-bot';
const ACTIVITY_TYPES = [
  'message',
  'conversationUpdate',
  'messageReaction',
  'invoke',
  'event',
  'typing',
  'endOfConversation',
  'installationUpdate',
  'messageUpdate',
  'messageDelete',
  'contactRelationUpdate',
  'deleteUserData',
  'suggestion',
  'trace',
  'handoff',
  'command',
  'commandResult',
  'invokeResponse',
  'zzz',
];
const FIELDS = [
  'type',
  'id',
  'serviceUrl',
  'channelId',
  'from',
  'conversation',
  'recipient',
  'text',
  'entities',
  'channelData',
  'value',
  'replyToId',
  'membersAdded',
  'membersRemoved',
  'reactionsAdded',
  'reactionsRemoved',
  'name',
  'locale',
  'attachments',
  'timestamp',
  'textFormat',
];

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT that looks like the Bot Framework's but is signed by nobody: the adapter must refuse it (401), not fail (500). */
function forgedJwt(rng: Prng, serviceUrl: string, now: number): string {
  const header = rng.pick<unknown>([
    { alg: 'RS256', kid: 'fuzz', typ: 'JWT' },
    { alg: 'none' },
    { alg: 'HS256' },
    {},
    'not json',
    { alg: 'RS256', x5t: 'x' },
  ]);
  const payload = rng.pick<unknown>([
    {
      iss: 'https://api.botframework.com',
      aud: '00000000-0000-4000-8000-00000000f022',
      exp: now + 3600,
      nbf: now - 10,
      serviceurl: serviceUrl,
    },
    { iss: 'https://sts.windows.net/d6d49420-f39b-4df7-a1dc-d59a935871db/', aud: 'x', exp: now - 3600 },
    { iss: 'https://login.microsoftonline.com/x/v2.0', ver: '2.0', appid: 'x' },
    {},
    'not json',
    { exp: 'soon', nbf: null, iss: 5 },
  ]);
  const signature = rng.pick(['', b64url(rng.bytes(256)), '!!!', 'a'.repeat(rng.between(10, 5_000))]);
  return rng.pick([
    `${b64url(header)}.${b64url(payload)}.${signature}`,
    `${b64url(header)}.${b64url(payload)}`,
    'a.b.c',
    '...',
    `${b64url(header)}..`,
  ]);
}

function teamsAuth(ctx: FuzzContext): FuzzRequest['headers'] {
  const { rng, serviceUrl } = ctx;
  const now = ctx.nowSeconds();
  const forged = [
    () => [],
    () => [['Authorization', `Bearer ${forgedJwt(rng, serviceUrl, now)}`]],
    () => [['Authorization', `Bearer ${forgedJwt(rng, serviceUrl, now)}`]],
    () => [['Authorization', 'Bearer']],
    () => [['Authorization', `Bearer ${junkHeaderValue(rng)}`]],
    () => [['Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`]],
    () => [['Authorization', junkHeaderValue(rng)]],
  ] satisfies Array<() => FuzzRequest['headers']>;
  const sign = ctx.channelToken;
  if (!sign || rng.chance(0.6)) return rng.pick<() => FuzzRequest['headers']>(forged)();
  // Signed with the key the server trusts: mostly valid, so that activities reach the bot; else expired or for another serviceUrl.
  const token = rng.pick<() => string>([
    () => sign(serviceUrl, now),
    () => sign(serviceUrl, now),
    () => sign(serviceUrl, now),
    () => sign(serviceUrl, now - 7_200),
    () => sign('https://smba.trafficmanager.net/amer/', now),
  ])();
  return [['Authorization', `Bearer ${token}`]];
}

/** A message activity as Teams sends it (the harness's shape). */
function activity(ctx: FuzzContext, text: unknown): Record<string, unknown> {
  const { rng } = ctx;
  const n = ctx.unique();
  const personal = rng.chance(0.5);
  const conversationId = personal ? `a:1fuzz-personal-${n % 50}` : `19:fuzz${n % 50}@thread.tacv2;messageid=${n}`;
  return {
    type: 'message',
    id: `fuzz${n}`,
    timestamp: new Date(ctx.nowSeconds() * 1000).toISOString(),
    serviceUrl: ctx.serviceUrl,
    channelId: 'msteams',
    from: { id: '29:1fuzz-user', name: 'Asker', aadObjectId: 'aad-fuzz-0001' },
    conversation: { id: conversationId, conversationType: personal ? 'personal' : 'channel', tenantId: 'tenant-fuzz' },
    recipient: { id: BOT_ID, name: 'Candor' },
    textFormat: 'plain',
    locale: 'en-US',
    channelData: { tenant: { id: 'tenant-fuzz' } },
    text: personal || typeof text !== 'string' ? text : `<at>Candor</at> ${text}`,
    ...(personal ? {} : { entities: [{ type: 'mention', text: '<at>Candor</at>', mentioned: { id: BOT_ID, name: 'Candor' } }] }),
  };
}

/** One field replaced with what a structurally odd but typed activity might carry. */
function oddField(rng: Prng, ctx: FuzzContext, field: string): unknown {
  switch (field) {
    case 'type':
      return rng.chance(0.7) ? rng.pick(ACTIVITY_TYPES) : junkValue(rng, 1);
    case 'serviceUrl':
      return rng.pick<unknown>([
        '',
        'not a url',
        'http://[',
        'http://127.0.0.1:1/',
        'javascript:alert(1)',
        'ftp://x/',
        ctx.serviceUrl.repeat(50),
        5,
        null,
      ]);
    case 'conversation':
      return rng.pick<unknown>([
        null,
        5,
        'x',
        {},
        { id: 5 },
        { id: '' },
        { id: 'x'.repeat(10_000) },
        { id: 'c', conversationType: 7, tenantId: [] },
      ]);
    case 'from':
    case 'recipient':
      return rng.pick<unknown>([null, 'x', {}, { id: null }, { id: BOT_ID }, { id: '29:x', role: 'bot' }, { id: '29:x', aadObjectId: 5 }]);
    case 'membersAdded':
    case 'membersRemoved':
      return rng.pick<unknown>([null, 'x', [null], [{}], [{ id: BOT_ID }], [{ id: 5 }], Array.from({ length: 500 }, () => ({ id: 'm' }))]);
    case 'reactionsAdded':
    case 'reactionsRemoved':
      return rng.pick<unknown>([null, 'x', [null], [{}], [{ type: 'like' }], [{ type: 5 }], [{ type: 'sad' }, { type: 'like' }]]);
    case 'value':
      return rng.pick<unknown>([
        null,
        'x',
        { task: 'abstention', value: 'correct', sampleId: 1 },
        { task: 'abstention', value: 'correct', sampleId: 'x' },
        { task: 5, value: [], sampleId: 1e400 },
        { candorLabel: true },
        junkValue(rng, 3),
      ]);
    case 'text':
      return rng.chance(0.5) ? junkValue(rng, 2) : rng.pick(['help', 'status', '<at>Candor</at> status', repeatedMarkup(rng, 8_000)]);
    default:
      return rng.chance(0.5) ? junkValue(rng, 2) : junkString(rng, 2_000);
  }
}

function typedOdd(ctx: FuzzContext): Record<string, unknown> {
  const { rng } = ctx;
  const out = activity(ctx, rng.pick(['What is the leave policy?', 'help', 'status', nastyString(rng)]));
  out.type = rng.pick(ACTIVITY_TYPES);
  for (let n = rng.between(1, 3); n > 0; n -= 1) {
    const field = rng.pick(FIELDS);
    if (rng.chance(0.25)) delete out[field];
    else out[field] = oddField(rng, ctx, field);
  }
  if (out.type === 'invoke')
    out.name = rng.pick(['adaptiveCard/action', 'task/fetch', 'composeExtension/query', 'signin/verifyState', '', 'zzz']);
  return out;
}

function post(ctx: FuzzContext, kind: string, body: string | Buffer): FuzzRequest {
  const { rng } = ctx;
  return {
    endpoint: PATH,
    kind,
    method: 'POST',
    target: PATH,
    headers: [...contentTypeHeaders(rng, 'application/json', 0.9), ...teamsAuth(ctx), ...extraHeaders(rng)],
    body,
    ...(rng.chance(0.9) ? { framing: 'length' as const } : framing(rng)),
  };
}

/** POST /api/messages: bodies that are not activities, activities without type or conversation, and typed but odd ones. */
export const teamsCases: Record<string, CaseMaker> = {
  'teams.shape': (ctx) => post(ctx, 'teams.shape', wrongJson(ctx.rng, 60_000)),
  'teams.untyped': (ctx) => {
    const { rng } = ctx;
    const a = activity(ctx, 'What is the leave policy?');
    const broken = rng.pick<() => unknown>([
      () => ({}),
      () => ({ ...a, type: undefined }),
      () => ({ ...a, type: rng.pick<unknown>([null, 5, [], {}, '', true]) }),
      () => ({ ...a, conversation: undefined }),
      () => ({ ...a, serviceUrl: undefined }),
      () => ({ ...a, conversation: undefined, serviceUrl: undefined }),
      () => ({ type: 'message' }),
      () => ({ type: 'message', text: 'hi' }),
    ])();
    return post(ctx, 'teams.untyped', JSON.stringify(broken));
  },
  'teams.typed-odd': (ctx) => post(ctx, 'teams.typed-odd', JSON.stringify(typedOdd(ctx))),
  'teams.question': (ctx) =>
    post(ctx, 'teams.question', JSON.stringify(activity(ctx, ctx.rng.pick(['What is the leave policy?', 'help', 'status'])))),
  'teams.junk': (ctx) => post(ctx, 'teams.junk', JSON.stringify({ ...activity(ctx, 'x'), ...(junkValue(ctx.rng, 3) as object) })),
  'teams.method': ({ rng }) => ({
    endpoint: PATH,
    kind: 'teams.method',
    method: rng.pick(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']),
    target: PATH,
    headers: [],
  }),
};
