import type { CaseMaker, Framing, FuzzContext, FuzzRequest } from './fuzz-request.js';
import { authHeaders, contentTypeHeaders, extraHeaders } from './header-junk.js';
import { junkString, junkValue, nastyString, repeatedMarkup, wrongJson } from './junk.js';
import type { Prng } from './prng.js';
import { METHODS } from './target-cases.js';

const QUESTIONS = ['What is the annual leave policy?', 'How long do I have to submit expense claims?', 'What is the capital of Peru?'];

/** A body framing: right most of the time, otherwise chunked or lying about its length. */
export function framing(rng: Prng): { framing: Framing; halfClose?: boolean } {
  if (rng.chance(0.8)) return { framing: 'length' };
  const f = rng.pick<Framing>([
    'chunked',
    'chunked',
    'chunked-bad',
    'length-short',
    'length-long',
    'length-nan',
    'length-negative',
    'length-dup',
    'length-and-chunked',
  ]);
  // A body shorter than promised (by its length or its chunks) ends when we close our side: nothing more is coming.
  return f === 'length-long' || f === 'chunked-bad' ? { framing: f, halfClose: true } : { framing: f };
}

/** A question: sensible, empty, huge, binary, markup repeated to the limits, or not a string. */
function question(rng: Prng): unknown {
  return rng.pick<() => unknown>([
    () => rng.pick(QUESTIONS),
    () => rng.pick(QUESTIONS),
    () => '',
    () => '   ',
    () => nastyString(rng),
    () => junkString(rng, 8_000),
    () => repeatedMarkup(rng, 8_000),
    () => repeatedMarkup(rng, 60_000),
    () => `${'<#A|'.repeat(2_000)}`,
    () => `${rng.pick(QUESTIONS)} ${'<#A|'.repeat(1_999)}`,
    () => 'q'.repeat(2_001),
    () => 'q'.repeat(8_001),
    () => 'x'.repeat(1_000_000),
    () => rng.bytes(rng.between(1, 4_000)).toString('latin1'),
    () => '\u0000'.repeat(100),
    () => '\ufffd'.repeat(50),
    () => 123,
    () => null,
    () => true,
    () => [],
    () => ['What is the leave policy?'],
    () => ({}),
    () => ({ toString: 'x' }),
    () => junkValue(rng, 3),
  ])();
}

function kb(rng: Prng): Record<string, unknown> {
  if (rng.chance(0.7)) return {};
  return { kb: rng.pick<unknown>(['fuzz', 'default', 'missing-kb', '', '../../etc', 'a'.repeat(65), 5, null, [], {}, nastyString(rng)]) };
}

function askBody(rng: Prng): string | Buffer {
  if (rng.chance(0.25)) return wrongJson(rng, 60_000);
  const body: Record<string, unknown> = { question: question(rng), ...kb(rng) };
  if (rng.chance(0.1)) delete body.question;
  if (rng.chance(0.1)) body[nastyString(rng) || 'extra'] = junkValue(rng, 2);
  return JSON.stringify(body);
}

function post(ctx: FuzzContext, kind: string, body: string | Buffer): FuzzRequest {
  const { rng, secrets } = ctx;
  return {
    endpoint: '/api/ask',
    kind,
    method: 'POST',
    target: rng.chance(0.9) ? '/api/ask' : rng.pick(['/api/ask?', '/api/ask?x=1', `http://127.0.0.1:${ctx.port}/api/ask`]),
    headers: [...contentTypeHeaders(rng, 'application/json'), ...authHeaders(rng, secrets.apiToken), ...extraHeaders(rng)],
    body,
    ...framing(rng),
  };
}

/** POST /api/ask with every kind of wrong body, and the other two API paths (/healthz, /metrics). */
export const apiCases: Record<string, CaseMaker> = {
  'api.ask.body': (ctx) => post(ctx, 'api.ask.body', askBody(ctx.rng)),
  'api.ask.markup': (ctx) => post(ctx, 'api.ask.markup', JSON.stringify({ question: repeatedMarkup(ctx.rng, 8_000) })),
  'api.ask.oversized': (ctx) =>
    post(ctx, 'api.ask.oversized', JSON.stringify({ question: 'x'.repeat(ctx.rng.between(65_000, 1_100_000)) })),
  'api.ask.method': ({ rng, secrets }) => ({
    endpoint: '/api/ask',
    kind: 'api.ask.method',
    method: rng.pick(METHODS.filter((m) => m !== 'POST')),
    target: '/api/ask',
    headers: authHeaders(rng, secrets.apiToken),
    body: rng.chance(0.5) ? '{"question":"x"}' : undefined,
  }),
  'healthz.any': ({ rng }) => {
    const method = rng.chance(0.7) ? rng.pick(['GET', 'HEAD']) : rng.pick(METHODS);
    return {
      endpoint: '/healthz',
      kind: 'healthz.any',
      method,
      target: rng.pick(['/healthz', '/healthz?full=1', '/healthz/', '/HEALTHZ']),
      headers: extraHeaders(rng),
      body: method === 'POST' ? junkString(rng, 1000) : undefined,
    };
  },
  'metrics.any': ({ rng, secrets }) => ({
    endpoint: '/metrics',
    kind: 'metrics.any',
    method: rng.chance(0.8) ? 'GET' : rng.pick(METHODS),
    target: rng.pick(['/metrics', '/metrics?name[]=x', '/metrics?%']),
    headers: [...authHeaders(rng, secrets.metricsToken), ...(rng.chance(0.2) ? [['Accept', junkString(rng, 200)] as const] : [])],
  }),
};
