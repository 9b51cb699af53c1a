import { framing } from './api-cases.js';
import { junkHeaderValue, type CaseMaker, type FuzzContext, type FuzzRequest } from './fuzz-request.js';
import { authHeaders, contentTypeHeaders } from './header-junk.js';
import { junkString, nastyString, repeatedMarkup, uriEncode } from './junk.js';
import type { Prng } from './prng.js';

const PAGES = ['/', '/interactions', '/gaps', '/review', '/agreement', '/ask', '/login', '/logout', '/console.css'];

/** Query strings the pages read (days, page, filters, next), with junk values and broken escapes. */
function query(rng: Prng): string {
  if (rng.chance(0.4)) return '';
  const value = () =>
    rng.pick<() => string>([
      () => uriEncode(nastyString(rng)),
      () => rng.pick(['1', '7', '30', '90', '0', '-1', 'NaN', '1e400', '99999999999', '1.5', '']),
      () => rng.pick(['%', '%%', '%E0%A4%A', '%ZZ', '%00', '//evil.invalid', '/login', '/\\evil', 'https://evil.invalid']),
      () => uriEncode(junkString(rng, 3_000)),
    ])();
  const names = ['days', 'page', 'decision', 'reason', 'channel', 'kb', 'next', 'q', 'days'];
  return `?${Array.from({ length: rng.between(1, 4) }, () => `${rng.pick(names)}=${value()}`).join('&')}`;
}

/** Cookies: the session a login gave, a forged or expired one, or a malformed header. */
function cookies(rng: Prng, session: string | undefined, now: number): FuzzRequest['headers'] {
  return rng.pick<() => FuzzRequest['headers']>([
    () => [],
    () => (session ? [['Cookie', session]] : []),
    () => [['Cookie', 'candor_console=%E0%A4%A']],
    () => [
      [
        'Cookie',
        `candor_console=${rng.pick(['', '.', '1.x', `${now + 3600}.forged`, '99999999999999.sig', '%', '%ZZ', 'a'.repeat(8_000)])}`,
      ],
    ],
    () => [['Cookie', `a=1; candor_console; =x; candor_console=${now}.${'A'.repeat(43)}`]],
    () => [
      ['Cookie', 'candor_console=%E0%A4%A'],
      ['Cookie', session ?? 'x=1'],
    ],
    () => [['Cookie', junkHeaderValue(rng)]],
    () => [['Cookie', Array.from({ length: 400 }, (_, i) => `c${i}=%${i}`).join('; ')]],
  ])();
}

function form(fields: Record<string, string>, rng: Prng): string {
  const pairs = Object.entries(fields).map(([k, v]) => `${k}=${rng.chance(0.8) ? uriEncode(v) : v}`);
  if (rng.chance(0.2)) pairs.push(rng.pick(['%', '&&', '=', 'token', 'a=%E0%A4%A', 'question=%FF%FE']));
  return pairs.join('&');
}

function formValue(rng: Prng): string {
  return rng.pick<() => string>([
    () => 'What is the annual leave policy?',
    () => nastyString(rng),
    () => junkString(rng, 5_000),
    () => repeatedMarkup(rng, 8_000),
    () => 'x'.repeat(rng.between(60_000, 200_000)),
  ])();
}

function consoleRequest(ctx: FuzzContext, kind: string, method: string, target: string, body?: string): FuzzRequest {
  const { rng } = ctx;
  const withBody = body !== undefined;
  const headers: FuzzRequest['headers'] = [
    ...(rng.chance(0.5) ? authHeaders(rng, ctx.secrets.consoleToken, 0.8) : cookies(rng, ctx.sessionCookie, ctx.nowSeconds())),
    ...(withBody ? contentTypeHeaders(rng, 'application/x-www-form-urlencoded') : []),
    ...(rng.chance(0.2)
      ? [['Origin', rng.pick(['null', 'http://[', `http://127.0.0.1:${ctx.port}`, 'http://evil.invalid', ''])] as const]
      : []),
  ];
  // Most from one of many loopback addresses, so the sign-in throttle (per address) leaves the pages behind it reachable.
  const from = rng.chance(0.7) ? `127.0.${rng.int(256)}.${rng.between(2, 254)}` : undefined;
  return { endpoint: 'console', kind, method, target, headers, body, ...(withBody ? framing(rng) : {}), ...(from ? { from } : {}) };
}

/** The console's pages with junk queries, cookies and credentials, its forms with junk fields, and the detail page's ids. */
export const consoleCases: Record<string, CaseMaker> = {
  'console.page': (ctx) => {
    const { rng } = ctx;
    return consoleRequest(
      ctx,
      'console.page',
      rng.chance(0.85) ? 'GET' : rng.pick(['HEAD', 'PUT', 'DELETE', 'OPTIONS']),
      `${rng.pick(PAGES)}${query(rng)}`,
    );
  },
  'console.detail': (ctx) => {
    const { rng } = ctx;
    const id = rng.pick(['0', '1', '2', '-1', '999999999999999', '9999999999999999', '1e3', '01', '1.0', '%31', 'x', '']);
    return consoleRequest(ctx, 'console.detail', 'GET', `/interactions/${id}${query(rng)}`);
  },
  'console.login': (ctx) => {
    const { rng, secrets } = ctx;
    const token = rng.chance(0.5) && secrets.consoleToken ? secrets.consoleToken : formValue(rng);
    const body = form(
      { token, next: rng.pick(['/', '/gaps?days=7', '//evil.invalid', 'https://evil.invalid', '/login', nastyString(rng)]) },
      rng,
    );
    return consoleRequest(ctx, 'console.login', 'POST', `/login${query(rng)}`, body);
  },
  'console.ask': (ctx) => {
    const { rng } = ctx;
    const body = form(
      { question: formValue(rng), kb: rng.pick(['', 'fuzz', 'missing-kb', '../x', nastyString(rng), 'a'.repeat(100)]) },
      rng,
    );
    return consoleRequest(ctx, 'console.ask', 'POST', '/ask', body);
  },
  'console.post-any': (ctx) => {
    const { rng } = ctx;
    return consoleRequest(
      ctx,
      'console.post-any',
      'POST',
      rng.pick(PAGES),
      rng.chance(0.5) ? form({ a: formValue(rng) }, rng) : junkString(rng, 3_000),
    );
  },
};
